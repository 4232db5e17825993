// The terminal find bar's words: "3 of 12", and what is wrong with a regular expression before it is searched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIND_HIGHLIGHT_LIMIT, findOptions, findProblem, matchCountText } from '../../../src-renderer/ui/screen/findQuery';

test('the count reads "n of m", says when nothing matches, and says nothing before anything is typed', () => {
  assert.equal(matchCountText('err', { resultIndex: 2, resultCount: 12 }), '3 of 12');
  assert.equal(matchCountText('err', { resultIndex: 0, resultCount: 1 }), '1 of 1');
  assert.equal(matchCountText('err', { resultIndex: -1, resultCount: 0 }), 'No matches');
  assert.equal(matchCountText('', { resultIndex: 2, resultCount: 12 }), '');
  assert.equal(matchCountText('err', null), '');
});

test('past the highlight limit the count says "1000+" rather than a number it does not know', () => {
  assert.equal(matchCountText('e', { resultIndex: -1, resultCount: FIND_HIGHLIGHT_LIMIT }), `${FIND_HIGHLIGHT_LIMIT}+ matches`);
  assert.equal(matchCountText('e', { resultIndex: -1, resultCount: 7 }), '7 matches');
});

test('a broken regular expression is named with how to fix it; plain text never is', () => {
  const problem = findProblem({ text: 'needle-(', caseSensitive: false, regex: true });
  assert.match(problem ?? '', /^Not a valid regular expression: .*Unterminated group/);
  assert.match(problem ?? '', /turn off \.\*/);
  assert.equal(findProblem({ text: 'needle-(', caseSensitive: false, regex: false }), null);
  assert.equal(findProblem({ text: 'needle-\\d+', caseSensitive: true, regex: true }), null);
  assert.equal(findProblem({ text: '', caseSensitive: false, regex: true }), null);
});

test('the search options carry the toggles and highlight colors the addon accepts (#RRGGBB) in both schemes', () => {
  for (const dark of [true, false]) {
    const options = findOptions({ text: 'x', caseSensitive: true, regex: true }, dark, false);
    assert.equal(options.caseSensitive, true);
    assert.equal(options.regex, true);
    for (const [key, value] of Object.entries(options.decorations ?? {})) assert.match(String(value), /^#[0-9a-f]{6}$/, key);
  }
  assert.equal(findOptions({ text: 'x', caseSensitive: false, regex: false }, true, true).incremental, true);
});
