import type { Hunk } from '../../../src-preload/contract';

/** One side of a diff line: its line number in that version, its text, and where it sits in that side's text. */
export interface DiffCell {
  /** 1-based line number in the old (removed, context) or the new (added, context) file. */
  no: number;
  text: string;
  type: ' ' | '+' | '-';
  /** Index in the side's lines (DiffLayout.oldLines / newLines), which the highlighter's state is carried along. */
  at: number;
  /** Characters of the line left out after MAX_LINE_CHARS (0 for almost every line). */
  omitted: number;
}

/**
 * A line is shown up to this many characters and the rest counted: a minified bundle or a hostile file can hold one
 * line of megabytes, which would stall highlighting and layout for a row nobody can read across anyway.
 */
export const MAX_LINE_CHARS = 2_000;

export type DiffRow =
  /** A hunk's header: where it is, its verdict and its Accept / Reject. */
  | { kind: 'hunk'; hunk: number }
  /** Unified: one line, numbered in the old file, the new one or both. */
  | { kind: 'line'; hunk: number; cell: DiffCell; oldNo: number | null; newNo: number | null }
  /** Side by side: the old line on the left, the new one on the right (a removal paired with the addition after it). */
  | { kind: 'pair'; hunk: number; left: DiffCell | null; right: DiffCell | null }
  /** git's "\ No newline at end of file" and other notes between lines. */
  | { kind: 'note'; hunk: number; text: string };

export type DiffMode = 'unified' | 'split';

export interface DiffLayout {
  rows: DiffRow[];
  /** The row index of each hunk's header, in hunk order: j / k move between them. */
  hunkRows: number[];
  /** The old file's lines the diff shows (context and removed), in order; the new file's (context and added). */
  oldLines: string[];
  newLines: string[];
}

/**
 * The rows a diff's hunks are shown as, unified or side by side. Built once per diff in one pass, so a diff of
 * thousands of lines is laid out in a few milliseconds and the view only draws the rows on screen.
 */
export function layoutDiff(hunks: readonly Hunk[], mode: DiffMode): DiffLayout {
  const rows: DiffRow[] = [];
  const hunkRows: number[] = [];
  const oldLines: string[] = [];
  const newLines: string[] = [];
  hunks.forEach((hunk, h) => {
    hunkRows.push(rows.length);
    rows.push({ kind: 'hunk', hunk: h });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    // Side by side: removals wait here until the additions after them are paired with them.
    let removed: DiffCell[] = [];
    let added: DiffCell[] = [];
    const flush = (): void => {
      for (let k = 0; k < Math.max(removed.length, added.length); k++) rows.push({ kind: 'pair', hunk: h, left: removed[k] ?? null, right: added[k] ?? null });
      removed = [];
      added = [];
    };
    for (const line of hunk.lines) {
      const prefix = line[0];
      const text = line.slice(1, 1 + MAX_LINE_CHARS);
      const omitted = Math.max(0, line.length - 1 - MAX_LINE_CHARS);
      if (prefix === '-') {
        const cell: DiffCell = { no: oldNo++, text, type: '-', at: oldLines.push(text) - 1, omitted };
        if (mode === 'unified') rows.push({ kind: 'line', hunk: h, cell, oldNo: cell.no, newNo: null });
        else removed.push(cell);
      } else if (prefix === '+') {
        const cell: DiffCell = { no: newNo++, text, type: '+', at: newLines.push(text) - 1, omitted };
        if (mode === 'unified') rows.push({ kind: 'line', hunk: h, cell, oldNo: null, newNo: cell.no });
        else added.push(cell);
      } else if (prefix === '\\') {
        if (mode === 'split') flush();
        rows.push({ kind: 'note', hunk: h, text: line.slice(0, MAX_LINE_CHARS) });
      } else {
        if (mode === 'split') flush();
        const left: DiffCell = { no: oldNo++, text, type: ' ', at: oldLines.push(text) - 1, omitted };
        const right: DiffCell = { no: newNo++, text, type: ' ', at: newLines.push(text) - 1, omitted };
        if (mode === 'unified') rows.push({ kind: 'line', hunk: h, cell: right, oldNo: left.no, newNo: right.no });
        else rows.push({ kind: 'pair', hunk: h, left, right });
      }
    }
    if (mode === 'split') flush();
  });
  return { rows, hunkRows, oldLines, newLines };
}

/** The hunk to go to from `current` with j (+1) or k (-1), staying within the diff; the first one when none is current. */
export function nextHunk(count: number, current: number | null, step: 1 | -1): number | null {
  if (count === 0) return null;
  if (current === null) return step === 1 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, current + step));
}

/** The hunk a row belongs to. */
export function hunkOfRow(rows: readonly DiffRow[], index: number): number | null {
  return rows[index]?.hunk ?? null;
}
