import type { FileHunk } from './diffHunks';
import { HunkNoLongerAppliesError } from './changesErrors';

/** A file's lines as bytes, each with its '\n' (the last one may have none). */
export function splitLines(content: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    if (end === -1) {
      lines.push(content.subarray(start));
      break;
    }
    lines.push(content.subarray(start, end + 1));
    start = end + 1;
  }
  return lines;
}

/** Where a hunk's side starts, 0-based: git numbers an empty side by the line before it. */
const sideStart = (start: number, count: number): number => (count === 0 ? start : start - 1);

function matchesAt(lines: Buffer[], at: number, expected: Buffer[]): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  for (let i = 0; i < expected.length; i++) if (!lines[at + i].equals(expected[i])) return false;
  return true;
}

/** The position nearest `from` where `expected` stands in `lines`, as git apply searches; -1 if nowhere. */
function find(lines: Buffer[], from: number, expected: Buffer[]): number {
  for (let distance = 0; distance <= lines.length; distance++) {
    if (matchesAt(lines, from - distance, expected)) return from - distance;
    if (distance > 0 && matchesAt(lines, from + distance, expected)) return from + distance;
  }
  return -1;
}

/**
 * Reverse-applies hunks of the diff oldBlob→newBlob to the file's content now: each hunk's new side (context and added
 * lines, as bytes from newBlob) must still stand in the file, and is replaced by its old side (from oldBlob). Lines
 * are compared byte for byte, so a line's ending and a missing final newline count. Other parts of the file, edited
 * since or not, stay as they are. HunkNoLongerAppliesError when a hunk's lines are no longer there.
 */
export function reverseHunks(path: string, current: Buffer, oldBlob: Buffer, newBlob: Buffer, hunks: readonly FileHunk[], reportedIndex: number | null): Buffer {
  const lines = splitLines(current);
  const oldLines = splitLines(oldBlob);
  const newLines = splitLines(newBlob);
  const edits: { at: number; length: number; replacement: Buffer[] }[] = [];
  let shift = 0;
  let floor = 0;
  for (const hunk of hunks) {
    const newAt = sideStart(hunk.newStart, hunk.newLines);
    const oldAt = sideStart(hunk.oldStart, hunk.oldLines);
    const expected = newLines.slice(newAt, newAt + hunk.newLines);
    const replacement = oldLines.slice(oldAt, oldAt + hunk.oldLines);
    const at = expected.length === 0 ? Math.min(newAt + shift, lines.length) : find(lines, newAt + shift, expected);
    if (at < floor || (expected.length > 0 && at === -1)) throw new HunkNoLongerAppliesError(path, reportedIndex ?? hunk.index);
    // A replacement that ends the file without a newline is only right where the file still ends.
    const last = replacement[replacement.length - 1];
    if (last && last[last.length - 1] !== 0x0a && at + expected.length !== lines.length) throw new HunkNoLongerAppliesError(path, reportedIndex ?? hunk.index);
    edits.push({ at, length: expected.length, replacement });
    shift = at - newAt;
    floor = at + expected.length;
  }
  for (const edit of edits.reverse()) lines.splice(edit.at, edit.length, ...edit.replacement);
  return Buffer.concat(lines);
}
