import { SecretScrubber } from '../../vault/secretScrubber';
import type { WorkspaceFiles } from './workspaceFiles';

/** The most of each side a consent card shows; a longer file is cut and the card says so. */
const MAX_PREVIEW_CHARS = 64 * 1024;

const defaultScrubber = new SecretScrubber();

const isText = (data: Buffer): boolean => !data.includes(0);

/**
 * What a files.write ask would write, for the consent card's diff: the file's text now (null when there is none
 * yet) and the text after, secrets scrubbed (a token in the file must not reach the page or a screenshot), each cut
 * at MAX_PREVIEW_CHARS. Undefined when there is nothing to show as text (binary content, a path outside the
 * workspace): the card then shows the path only, as before.
 */
export function writePreview(
  files: WorkspaceFiles,
  path: string,
  content: Buffer,
  scrubber: SecretScrubber = defaultScrubber,
): { path: string; before: string | null; after: string; truncated: boolean } | undefined {
  if (!isText(content)) return undefined;
  let before: string | null = null;
  let shownPath: string;
  try {
    shownPath = files.lexical(path);
  } catch {
    return undefined;
  }
  try {
    const current = files.read(path).data;
    if (!isText(current)) return undefined;
    before = current.toString('utf8');
  } catch (error) {
    // Only "not there yet" is a creation; anything else (a link out of the workspace, a folder) shows no preview.
    if ((error as { code?: string }).code !== 'not_found') return undefined;
  }
  const after = content.toString('utf8');
  const truncated = after.length > MAX_PREVIEW_CHARS || (before?.length ?? 0) > MAX_PREVIEW_CHARS;
  const cut = (text: string) => scrubber.scrubText(text.slice(0, MAX_PREVIEW_CHARS));
  return { path: shownPath, before: before === null ? null : cut(before), after: cut(after), truncated };
}
