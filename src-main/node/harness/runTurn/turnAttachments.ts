import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../harnessError';

/** `request.attachments` are file paths, absolute or relative to the turn's cwd; each must be an existing file. */
export function resolveAttachments(cwd: string, attachments: unknown): string[] {
  if (attachments === undefined) return [];
  if (!Array.isArray(attachments)) throw new HarnessError('HARNESS_BAD_REQUEST', 'attachments must be an array of file paths');
  return attachments.map((entry: unknown, index) => {
    if (typeof entry !== 'string' || entry === '') throw new HarnessError('HARNESS_BAD_REQUEST', `attachments[${index}] must be a file path, not ${JSON.stringify(entry)}`);
    const file = resolve(cwd, entry);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new HarnessError('HARNESS_BAD_REQUEST', `attachments[${index}]: ${file} is not an existing file; attach files by their path (absolute or relative to cwd)`);
    }
    return file;
  });
}
