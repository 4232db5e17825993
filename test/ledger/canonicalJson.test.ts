import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, CanonicalJsonError } from '../../src-main/node/ledger/canonicalJson';

test('keys are sorted by UTF-16 code units at every depth, whatever the insertion order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 0, y: 1 }], c: 2 } }), '{"a":{"c":2,"d":[3,{"y":1,"z":0}]},"b":1}');
  // The sorting example of RFC 8785 §3.2.3: plain UTF-16 code units, no locale.
  assert.equal(canonicalJson({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '1': 4, '\u0080': 5, '\u00f6': 6 }), '{"\\r":2,"1":4,"\u0080":5,"\u00f6":6,"\u20ac":1,"\ud83d\ude00":3}');
  assert.equal(canonicalJson({ x: 1, y: 2 }), canonicalJson({ y: 2, x: 1 }));
});

test('numbers take their shortest round-trip form; -0 is 0; non-finite numbers are refused', () => {
  assert.equal(canonicalJson([0, -0, 1, -1.5, 1e21, 1e-7, 123456789012345680000, 0.1 + 0.2, 5e-324]), '[0,0,1,-1.5,1e+21,1e-7,123456789012345680000,0.30000000000000004,5e-324]');
  for (const bad of [NaN, Infinity, -Infinity]) assert.throws(() => canonicalJson({ n: bad }), CanonicalJsonError);
});

test('unicode is written as itself, control characters escaped, lone surrogates refused', () => {
  assert.equal(canonicalJson('héllo ✓ 😀 \u2028'), '"héllo ✓ 😀 \u2028"');
  assert.equal(canonicalJson('a\u0000b\u001f"\\\n\t'), '"a\\u0000b\\u001f\\"\\\\\\n\\t"');
  assert.throws(() => canonicalJson({ s: 'broken \ud800 half' }), /lone surrogate/);
  assert.throws(() => canonicalJson({ s: '\udc00' }), /lone surrogate/);
});

test('non-JSON values are refused with the path where they sit; undefined members are left out', () => {
  assert.equal(canonicalJson({ a: undefined, b: null }), '{"b":null}');
  assert.throws(() => canonicalJson({ list: [1, undefined] }), /\$\.list\[1\]/);
  assert.throws(() => canonicalJson({ when: new Date(0) }), /instance of Date at \$\.when/);
  assert.throws(() => canonicalJson({ big: 1n }), /bigint at \$\.big/);
  assert.throws(() => canonicalJson({ f: () => 1 }), /function/);
});

test('a refusal deep inside names the whole path to it', () => {
  assert.throws(() => canonicalJson({ a: [{ b: [1, { c: NaN }] }] }), /NaN at \$\.a\[0\]\.b\[1\]\.c /);
  assert.throws(() => canonicalJson({ a: { b: [0, 1, undefined] } }), /undefined at \$\.a\.b\[2\] /);
  assert.throws(() => canonicalJson([{ '\ud800': 1 }]), /lone surrogate at \$\[0\] /);
});

test('any string, whatever its characters, is written exactly as JSON.stringify writes it, or refused if not well formed', () => {
  // Strings drawn from the characters that matter: quotes, backslashes, controls, DEL, non-ASCII, surrogate halves.
  const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '\u0000', '\u0008', '\u001f', '\u007f', 'é', '\u2028', '✓', '\ud83d', '\ude00'];
  let state = 20261123;
  const next = (): number => (state = (state * 1664525 + 1013904223) >>> 0);
  for (let n = 0; n < 5000; n++) {
    let text = '';
    // Up to 48 characters: strings of 32 and fewer are searched by a loop, longer ones by a regular expression.
    for (let length = next() % 48; length > 0; length--) text += alphabet[next() % alphabet.length];
    const wellFormed = !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
    if (wellFormed) {
      assert.equal(canonicalJson(text), JSON.stringify(text), `string ${JSON.stringify(text)}`);
      assert.equal(canonicalJson({ [text]: text }), `{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    } else {
      assert.throws(() => canonicalJson({ s: text }), /lone surrogate/, `string ${JSON.stringify(text)}`);
    }
  }
});

test('member names seen before, and long ones, are written the same way every time', () => {
  const long = `k"${'x'.repeat(100)}`;
  for (let round = 0; round < 3; round++) {
    assert.equal(canonicalJson([{ b: 1, a: 2 }, { a: 3, b: 4 }, { [long]: 5 }]), `[{"a":2,"b":1},{"a":3,"b":4},{${JSON.stringify(long)}:5}]`);
  }
  assert.throws(() => canonicalJson({ ok: 1, '\udfff': 2 }), /lone surrogate at \$ /);
  assert.throws(() => canonicalJson({ ok: 1, '\udfff': 2 }), /lone surrogate at \$ /, 'a refused name is not remembered as encodable');
});
