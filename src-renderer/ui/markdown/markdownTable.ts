import { parseInline, type Inline } from './markdownInline';

/** A GFM table: a header row, a delimiter row (`---`, `:---`, `---:`, `:---:`) and body rows. */
export type CellAlign = 'left' | 'center' | 'right' | null;

export interface TableBlock {
  kind: 'table';
  align: CellAlign[];
  header: Inline[][];
  rows: Inline[][][];
}

/**
 * A row's cells: split at pipes that are not escaped (`\|` is a pipe inside a cell, also inside code spans, as in
 * GFM), one optional leading and trailing pipe dropped, each cell trimmed. Other backslashes stay for parseInline.
 */
export function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  const cells: string[] = [];
  let cell = '';
  let closed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    closed = false;
    if (c === '\\' && i + 1 < text.length) {
      cell += text[i + 1] === '|' ? '|' : c + text[i + 1];
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
      closed = true;
    } else cell += c;
  }
  // A trailing pipe closes the last cell; without one, what follows the last pipe is a cell.
  if (!closed || cells.length === 0) cells.push(cell.trim());
  return cells;
}

const DELIMITER_CELL = /^:?-+:?$/;

/** The alignments of a delimiter row, or null when the line is not one. */
export function delimiterRow(line: string): CellAlign[] | null {
  if (!line.includes('-') || !line.includes('|') || !/^[\s|:-]+$/.test(line)) return null;
  const cells = splitRow(line);
  if (cells.length === 0 || !cells.every((cell) => DELIMITER_CELL.test(cell))) return null;
  return cells.map((cell) => (cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : null));
}

/** Whether `line` is a table's header row that `next` (a delimiter row with as many cells) completes. */
export function startsTable(line: string, next: string | undefined): boolean {
  if (next === undefined || !line.includes('|')) return false;
  const align = delimiterRow(next);
  return align !== null && align.length === splitRow(line).length;
}

/**
 * The table starting at `lines[start]` (startsTable is true there), and the index of the first line after it. Rows run
 * until a blank line or a line `endsTable` says starts another block; a row has exactly as many cells as the header
 * (missing ones empty, extra ones dropped).
 */
export function parseTable(lines: string[], start: number, endsTable: (line: string) => boolean): { table: TableBlock; next: number } {
  const header = splitRow(lines[start]);
  const align = delimiterRow(lines[start + 1]) ?? [];
  const width = header.length;
  const rows: Inline[][][] = [];
  let i = start + 2;
  for (; i < lines.length && lines[i].trim() !== '' && !endsTable(lines[i]); i++) {
    const cells = splitRow(lines[i]);
    rows.push(Array.from({ length: width }, (_, j) => parseInline(cells[j] ?? '')));
  }
  return { table: { kind: 'table', align, header: header.map((cell) => parseInline(cell)), rows }, next: i };
}
