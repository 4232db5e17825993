// Unified diffs of an edit's old and new text (ACP tool calls carry those, not patches).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeDiff } from '../../../../src-renderer/ui/diff/diffLines';
import { unifiedDiff } from '../../../../src-renderer/ui/diff/textDiff';

test('a new file is all added, from /dev/null', () => {
  assert.deepEqual(unifiedDiff('a.txt', null, 'one\ntwo\n'), ['--- /dev/null', '+++ b/a.txt', '@@ -0,0 +1,2 @@', '+one', '+two']);
});

test('a change in the middle gets three lines of context and correct hunk numbers', () => {
  const old = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
  const lines = unifiedDiff('f.ts', old, old.replace('l5', 'five').replace('l7\n', ''));
  assert.deepEqual(lines, ['--- a/f.ts', '+++ b/f.ts', '@@ -2,7 +2,6 @@', ' l2', ' l3', ' l4', '-l5', '+five', ' l6', '-l7', ' l8']);
  assert.deepEqual(summarizeDiff(lines), { files: ['f.ts'], added: 1, removed: 2 });
});

test('changes far apart make two hunks; equal texts only the headers', () => {
  const old = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
  const next = old.replace('line 2\n', 'line two\n').replace('line 25', 'line twenty-five');
  const hunks = unifiedDiff('x', old, next).filter((line) => line.startsWith('@@'));
  assert.deepEqual(hunks, ['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@']);
  assert.deepEqual(unifiedDiff('x', old, old), ['--- a/x', '+++ b/x']);
});

test('a huge rewrite stays linear: removed then added, no table', () => {
  const old = Array.from({ length: 5000 }, (_, i) => `a${i}`).join('\n');
  const next = Array.from({ length: 5000 }, (_, i) => `b${i}`).join('\n');
  const started = performance.now();
  const summary = summarizeDiff(unifiedDiff('big', old, next));
  assert.deepEqual([summary.added, summary.removed], [5000, 5000]);
  assert.ok(performance.now() - started < 2000);
});

test('an absolute path (as ACP agents send) is named as it is, without a/ b/ prefixes', () => {
  const lines = unifiedDiff('/w/notes.md', 'a\n', 'b\n');
  assert.deepEqual(lines.slice(0, 2), ['--- /w/notes.md', '+++ /w/notes.md']);
  assert.deepEqual(summarizeDiff(lines).files, ['/w/notes.md']);
});
