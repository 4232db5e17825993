// A run card's large output items go to xterm in slices (SCREEN_WRITE_SLICE), so its first screenful is drawn
// before the whole item is parsed: the slices must give back exactly the text, in order, and never split a character.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCREEN_WRITE_SLICE, writeSlices } from '../../../../src-renderer/ui/screen/writeSlices';

test('text up to a slice is written whole; longer text in slices that join back to it', () => {
  assert.deepEqual(writeSlices('hello'), ['hello']);
  const exact = 'x'.repeat(SCREEN_WRITE_SLICE);
  assert.deepEqual(writeSlices(exact), [exact]);
  const long = Array.from({ length: 20_000 }, (_, i) => `line ${i}\r\n`).join('');
  const pieces = writeSlices(long);
  assert.ok(pieces.length > 1, 'a 200 KB item comes in several slices');
  assert.ok(pieces.every((p) => p.length > 0 && p.length <= SCREEN_WRITE_SLICE));
  assert.equal(pieces.join(''), long);
});

test('a character outside the BMP (two UTF-16 units) is never cut in half at a slice boundary', () => {
  for (const offset of [0, 1]) {
    // With offset 0 the emoji's high surrogate is the eighth unit: the last of the first slice.
    const text = `${'a'.repeat(7 - offset)}😀${'b'.repeat(20)}😀`;
    const pieces = writeSlices(text, 8);
    assert.equal(pieces.join(''), text);
    for (const piece of pieces) {
      const last = piece.charCodeAt(piece.length - 1);
      assert.ok(!(last >= 0xd800 && last <= 0xdbff), `slice ${JSON.stringify(piece)} ends in a high surrogate`);
    }
  }
});
