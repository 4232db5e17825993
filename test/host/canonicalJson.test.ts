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
