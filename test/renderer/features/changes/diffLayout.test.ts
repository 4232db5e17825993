// How a file's hunks become the review's rows (unified and side by side), the line numbers a user reads, the
// highlighter's per-side lines, and j / k moving between hunks; then the file list's and the restore plan's words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangedFile, Hunk, RestorePlan } from '../../../../src-preload/contract';
import { layoutDiff, MAX_LINE_CHARS, nextHunk, type DiffRow } from '../../../../src-renderer/features/changes/diffLayout';
import { pickFile, skippedText, statusCounts } from '../../../../src-renderer/features/changes/fileSummary';
import { restoreSummary } from '../../../../src-renderer/features/changes/restoreSummary';

function hunk(index: number, oldStart: number, newStart: number, lines: string[]): Hunk {
  const oldLines = lines.filter((l) => l[0] !== '+' && l[0] !== '\\').length;
  const newLines = lines.filter((l) => l[0] !== '-' && l[0] !== '\\').length;
  return { index, oldStart, oldLines, newStart, newLines, heading: '', lines, verdict: 'pending' };
}

const edit = hunk(0, 10, 10, [' keep', '-old one', '-old two', '+new one', ' tail']);

function describe(row: DiffRow): string {
  switch (row.kind) {
    case 'hunk':
      return `@@${row.hunk}`;
    case 'note':
      return `note ${row.text}`;
    case 'line':
      return `${row.oldNo ?? '_'}|${row.newNo ?? '_'} ${row.cell.type}${row.cell.text}`;
    case 'pair':
      return `${row.left ? `${row.left.no}${row.left.type}${row.left.text}` : '_'} || ${row.right ? `${row.right.no}${row.right.type}${row.right.text}` : '_'}`;
  }
}

test('unified: a header per hunk, then each line with its number in the old file, the new one or both', () => {
  const layout = layoutDiff([edit], 'unified');
  assert.deepEqual(layout.rows.map(describe), ['@@0', '10|10  keep', '11|_ -old one', '12|_ -old two', '_|11 +new one', '13|12  tail']);
  assert.deepEqual(layout.hunkRows, [0]);
  assert.deepEqual(layout.oldLines, ['keep', 'old one', 'old two', 'tail']);
  assert.deepEqual(layout.newLines, ['keep', 'new one', 'tail']);
});

test('side by side: removals pair with the additions after them, the longer side leaves blanks on the other', () => {
  const layout = layoutDiff([edit], 'split');
  assert.deepEqual(layout.rows.map(describe), ['@@0', '10 keep || 10 keep', '11-old one || 11+new one', '12-old two || _', '13 tail || 12 tail']);
});

test('several hunks: j / k land on each header in turn and stop at the ends; notes stay in their hunk', () => {
  const second = hunk(1, 40, 39, ['-gone', '\\ No newline at end of file', '+last']);
  const layout = layoutDiff([edit, second], 'unified');
  assert.deepEqual(layout.hunkRows, [0, 6]);
  assert.deepEqual(layout.rows.slice(6).map(describe), ['@@1', '40|_ -gone', 'note \\ No newline at end of file', '_|39 +last']);
  assert.equal(nextHunk(2, null, 1), 0);
  assert.equal(nextHunk(2, null, -1), 1);
  assert.equal(nextHunk(2, 0, 1), 1);
  assert.equal(nextHunk(2, 1, 1), 1);
  assert.equal(nextHunk(2, 0, -1), 0);
  assert.equal(nextHunk(0, null, 1), null);
});

test('a 5,000-line diff is laid out as one row per line plus its headers, every line numbered', () => {
  const lines = Array.from({ length: 5_000 }, (_, i) => (i % 2 === 0 ? `+added ${i}` : `-removed ${i}`));
  const layout = layoutDiff([hunk(0, 1, 1, lines)], 'unified');
  assert.equal(layout.rows.length, 5_001);
  const last = layout.rows.at(-1)!;
  assert.equal(last.kind === 'line' && last.oldNo, 2_500);
  assert.equal(layoutDiff([hunk(0, 1, 1, lines)], 'split').rows.length, 1 + 2_500);
});

const file = (path: string, status: ChangedFile['status']): ChangedFile => ({ path, status, binary: false, additions: 1, deletions: 0, verdict: 'pending' });

test('the file list says how many files of each kind, and keeps the selected file while it is listed', () => {
  const files = [file('a.ts', 'added'), file('b.ts', 'modified'), file('c.ts', 'deleted'), file('d.ts', 'added')];
  assert.equal(statusCounts(files), '2 added · 1 modified · 1 deleted');
  assert.equal(statusCounts([]), 'no files changed');
  assert.equal(pickFile(files, 'c.ts'), 'c.ts');
  assert.equal(pickFile(files, 'gone.ts'), 'a.ts');
  assert.equal(pickFile([], null), null);
  assert.equal(skippedText({ path: 'big.bin', reason: 'too_large', size: 200_000_000 }), `too large to snapshot (${(200_000_000).toLocaleString()} bytes)`);
});

test('the restore plan is summed up by what happens to the files, and an empty plan says nothing would change', () => {
  const plan: RestorePlan = {
    snapshot: 'snap_aaaaaaaa',
    files: [
      { path: 'a', action: 'restore' },
      { path: 'b', action: 'delete' },
      { path: 'c', action: 'recreate' },
      { path: 'd', action: 'restore' },
    ],
  };
  assert.equal(restoreSummary(plan), '2 restored · 1 deleted · 1 recreated.');
  assert.match(restoreSummary({ snapshot: 'snap_aaaaaaaa', files: [] }), /nothing would change/);
});

test('a line of a megabyte (minified, or planted by an agent) is shown cut, with what was left out counted', () => {
  const huge = 'x'.repeat(1_000_000);
  const layout = layoutDiff([hunk(0, 1, 1, [`+${huge}`, ' short'])], 'unified');
  const [, first, second] = layout.rows;
  assert.ok(first.kind === 'line' && second.kind === 'line');
  assert.equal(first.cell.text.length, MAX_LINE_CHARS);
  assert.equal(first.cell.omitted, 1_000_000 - MAX_LINE_CHARS);
  assert.equal(layout.newLines[0].length, MAX_LINE_CHARS, 'the highlighter only ever sees the part shown');
  assert.equal(second.cell.text, 'short');
  assert.equal(second.cell.omitted, 0);
});
