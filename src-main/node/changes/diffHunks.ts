import type { Hunk } from '../../../src-preload/contract/changes';

export type FileHunk = Omit<Hunk, 'verdict'>;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/**
 * The hunks of one file's unified diff (git's output for one path). `lines` keep git's prefixes: ' ' context, '+'
 * added, '-' removed, and git's own "\ No newline at end of file" line after the line it is about, so the hunk says
 * exactly which side ends without a newline. Lines are decoded as UTF-8 for display; reverting a hunk works on the
 * blobs' bytes (reverseHunks.ts), never on this text.
 */
export function parseHunks(diff: string): FileHunk[] {
  const hunks: FileHunk[] = [];
  let current: FileHunk | null = null;
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = {
        index: hunks.length,
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        heading: header[5],
        lines: [],
      };
      hunks.push(current);
      continue;
    }
    if (!current) continue; // the file header (diff --git, index, ---, +++)
    const prefix = line[0];
    if (prefix === ' ' || prefix === '+' || prefix === '-' || prefix === '\\') current.lines.push(line);
    else if (line === '') current.lines.push(' '); // some tools drop the space of an empty context line
    else current = null; // a following file's header
  }
  return hunks;
}
