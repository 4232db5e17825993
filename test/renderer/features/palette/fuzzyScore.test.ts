import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzyMatch, highlightSegments } from '../../../../src-renderer/features/palette/fuzzyScore';

const score = (query: string, text: string): number => {
  const match = fuzzyMatch(query, text);
  assert.ok(match, `"${query}" should match "${text}"`);
  return match.score;
};

test('the query letters must all be there, in order, in any case', () => {
  assert.deepEqual(fuzzyMatch('nt', 'New terminal')?.positions, [0, 4]);
  assert.deepEqual(fuzzyMatch('NEW', 'new session')?.positions, [0, 1, 2]);
  assert.equal(fuzzyMatch('nt', 'Ten'), null, 'letters out of order do not match');
  assert.equal(fuzzyMatch('ledgerx', 'Ledger'), null, 'a letter the text lacks does not match');
  assert.equal(fuzzyMatch('abc', 'ab'), null, 'a query longer than the text does not match');
});

test('an empty or blank query matches everything, with nothing highlighted', () => {
  assert.deepEqual(fuzzyMatch('', 'Verify the ledger'), { score: 0, positions: [] });
  assert.deepEqual(fuzzyMatch('   ', 'Verify the ledger'), { score: 0, positions: [] });
});

test('spaces in the query separate words: "new term" finds New terminal across the space', () => {
  assert.deepEqual(fuzzyMatch('new term', 'New terminal')?.positions, [0, 1, 2, 4, 5, 6, 7]);
});

test('the best placement wins over the first one: a whole word rather than letters scattered before it', () => {
  // Greedy left-to-right would take the t of "the", its e, then r and m further on.
  assert.deepEqual(fuzzyMatch('term', 'Rerun the terminal')?.positions, [10, 11, 12, 13]);
});

test('letters at the start of words score more than letters inside words', () => {
  assert.ok(score('gp', 'Goal panel') > score('gp', 'Gap'), 'G-oal P-anel beats Ga-p');
  assert.deepEqual(fuzzyMatch('gp', 'Show the goal panel')?.positions, [9, 14]);
  // A capital after a lower-case letter starts a word too (camelCase), a separator does as well.
  assert.deepEqual(fuzzyMatch('ws', 'workspaceSummary')?.positions, [0, 9]);
  assert.deepEqual(fuzzyMatch('ws', 'workspace-summary')?.positions, [0, 10]);
});

test('adjacent letters score more than the same letters spread out', () => {
  assert.ok(score('ledg', 'Ledger') > score('ledg', 'Leave the dialog'));
  assert.ok(score('ver', 'Verify the ledger') > score('ver', 'View every run'));
});

test('an earlier match scores a little more than the same match further in', () => {
  assert.ok(score('ledger', 'Ledger view') > score('ledger', 'Open the ledger'));
});

test('a typed prefix of a title scores more than a scattered match of a longer title', () => {
  assert.ok(score('conn', 'Connections') > score('conn', 'Copy one node name'));
});

test('highlighting splits the text into matched and unmatched runs', () => {
  assert.deepEqual(highlightSegments('New terminal', [0, 1, 2, 4, 5]), [
    { text: 'New', matched: true },
    { text: ' ', matched: false },
    { text: 'te', matched: true },
    { text: 'rminal', matched: false },
  ]);
  assert.deepEqual(highlightSegments('abc', []), [{ text: 'abc', matched: false }]);
  assert.deepEqual(highlightSegments('', []), []);
});
