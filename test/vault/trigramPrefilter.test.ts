import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { Secret } from '../../src-main/node/vault/secret';
import { TOKEN_PATTERNS } from '../../src-main/node/vault/tokenPatterns';
import { leadingTrigrams, TrigramPrefilter } from '../../src-main/node/vault/trigramPrefilter';
import { TOKEN_SHAPES } from './canaries';

const ANCHORS = TOKEN_PATTERNS.map((pattern) => pattern.anchor).join('|');

/** A seeded pseudo-random generator, so a failing case can be rerun as it was. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Text made of pieces of the anchors themselves (whole, cut short, with a character changed), characters whose
 * low 7 bits equal an anchor's (é is 0xE9 → "i", 中 is 0x4E2D → "-"), and ordinary terminal output.
 */
function adversarialText(next: () => number, anchorWords: string[]): string {
  const noise = ['the ', '\r\n', '\x1b[32m', 'PASS ', 'task ', 'key ', '"k":"v"', 'src/main.ts:12:7 ', '\u00e9', '\u4e2d', '\u0120', 'a', '-', '_'];
  let text = '';
  const pieces = 1 + Math.floor(next() * 12);
  for (let i = 0; i < pieces; i++) {
    const roll = next();
    if (roll < 0.35) {
      const word = anchorWords[Math.floor(next() * anchorWords.length)];
      if (next() < 0.5) {
        text += word;
      } else {
        // Cut short, or one character swapped for one with the same low 7 bits.
        const at = Math.floor(next() * word.length);
        text += next() < 0.5 ? word.slice(0, at) : word.slice(0, at) + String.fromCharCode(word.charCodeAt(at) + 128) + word.slice(at + 1);
      }
    } else {
      text += noise[Math.floor(next() * noise.length)];
    }
  }
  return text;
}

test('the prefilter says exactly what the anchors expression says, on text built to trip it up', () => {
  const prefilter = TrigramPrefilter.forExpression(ANCHORS);
  const expression = new RegExp(ANCHORS);
  // Literal spellings of every anchor alternative (sets and groups expanded to their first choice and to others).
  const words = ['-----BEGIN', 'ghp_', 'gho_', 'github_pat_', 'sk-ant-', 'sk-', 'AKIA', 'ASIA', 'xoxb-', 'xapp-', 'AIza', 'rk_live_', 'sk_test_', 'eyJ', 'Authorization', 'authorization', 'AUTHORIZATION', 'Api-Key', 'api-key', 'Bearer', '://', '?access_token=', '&sig=', '&X-Amz-Signature=', 'PASSWORD', 'API_KEY', 'PRIVATE_KEY', '"password"', '"refreshToken"'];
  const next = random(11);
  let positives = 0;
  for (let round = 0; round < 20_000; round++) {
    const text = adversarialText(next, words);
    const expected = expression.test(text);
    if (expected) positives++;
    assert.equal(prefilter.test(text), expected, `round ${round}: ${JSON.stringify(text)}`);
  }
  // Both answers occur often, or the comparison above proves little.
  assert.ok(positives > 2_000 && positives < 18_000, `${positives} of 20000 texts held an anchor`);
});

test('every token shape the scrubber knows is still found (the prefilter never skips a token)', () => {
  const prefilter = TrigramPrefilter.forExpression(ANCHORS);
  for (const [shape, make] of Object.entries(TOKEN_SHAPES)) {
    for (let round = 0; round < 25; round++) {
      const { text } = make();
      assert.ok(prefilter.test(text), `${shape}: a sample the prefilter passes over`);
      // Also deep inside a long, clean text, where only the scan (not a lucky start) can find it.
      assert.ok(prefilter.test(`${'lorem ipsum '.repeat(5000)}${text}${' dolor'.repeat(5000)}`), `${shape}: missed inside long text`);
    }
  }
});

test('registered values are found wherever they stand, also values that start outside ASCII', () => {
  const values = ['hunter2-correct-horse', '\u00e9t\u00e9-password-42', '\u4e2d\u6587\u5bc6\u7801\u5bc6\u7801\u5bc6\u7801'];
  const prefilter = TrigramPrefilter.forLiterals(values);
  for (const value of values) {
    assert.ok(prefilter.test(value));
    assert.ok(prefilter.test(`${'x'.repeat(70_000)}${value}`));
    assert.ok(prefilter.test(`${value.slice(0, 4)}\r\n${value}`));
    assert.equal(prefilter.test(value.slice(0, -1)), false, 'a value cut short is not that value');
  }
  assert.equal(prefilter.test('hunter2-correct-hors\u00e9'), false);
  // Through the scrubber: a registered value and a token in one long line of output are both replaced.
  const registry = new SecretRegistry();
  registry.register(new Secret('hunter2-correct-horse'));
  const scrubbed = new SecretScrubber(registry).scrubText(`${'ok '.repeat(30_000)}pass hunter2-correct-horse and ghp_${'a1B2'.repeat(9)}`);
  assert.ok(scrubbed.endsWith('pass [REDACTED:registered] and [REDACTED:github-token]'));
});

test('the anchors expand to their three-character starts; an anchor the prefilter cannot represent is refused', () => {
  assert.deepEqual([...leadingTrigrams('gh[pou]_|xa(?:pp|b)|\\/\\/x')].sort(), ['//x', 'gho', 'ghp', 'ghu', 'xab', 'xap']);
  assert.deepEqual([...leadingTrigrams('[a-c]yz')].sort(), ['ayz', 'byz', 'cyz']);
  for (const [source, why] of [
    ['ab|c', /fewer than 3 characters/],
    ['abc+', /quantifier/],
    ['a.c', /"\."/],
    ['[^a]bc', /negated set/],
    ['\\dbc', /escape/],
    ['(?<n>abc)', /group other than/],
    ['(?:abc', /unclosed group/],
    ['abc)', /unmatched/],
  ] as const) {
    assert.throws(() => leadingTrigrams(source), why, source);
  }
  assert.throws(() => TrigramPrefilter.forLiterals(['ab']), /at least 3 characters/);
  assert.throws(() => leadingTrigrams('(?<![a-z]x)abc'), /lookbehind other than/);
});

test('a (?<![set]) in an anchor adds no start but is checked: "sk-" counts only where a token can start', () => {
  assert.deepEqual([...leadingTrigrams('(?<![A-Za-z0-9_-])sk-|ghp')].sort(), ['ghp', 'sk-']);
  const prefilter = TrigramPrefilter.forExpression('(?<![A-Za-z0-9_-])sk-');
  for (const text of ['task-1234567890abcdefghij', 'disk-full', 'x_sk-1', 'a-sk-b']) assert.equal(prefilter.test(text), false, text);
  for (const text of ['sk-abc', 'key sk-abc', '"sk-abc"', 'k=sk-abc', '/sk-abc', 'task-1 sk-abc']) assert.equal(prefilter.test(text), true, text);
});

test('on ASCII bytes the prefilter says what the expression says of their text, without decoding them', () => {
  const prefilter = TrigramPrefilter.forExpression(ANCHORS);
  const expression = new RegExp(ANCHORS);
  const words = ['-----BEGIN', 'ghp_', 'github_pat_', 'sk-ant-', 'sk-', 'AKIA', 'xoxb-', 'eyJ', 'Authorization', 'Bearer', '://', '?access_token=', '&X-Amz-Security-Token=', 'PASSWORD', 'PASS', '"clientSecret"', '"privateKey"'];
  const next = random(29);
  let positives = 0;
  for (let round = 0; round < 20_000; round++) {
    // The same adversarial text, folded to ASCII: é (0xE9) becomes "i", so a near-anchor stays a near-anchor.
    const text = [...adversarialText(next, words)].map((char) => String.fromCharCode(char.charCodeAt(0) & 127)).join('');
    const expected = expression.test(text);
    if (expected) positives++;
    assert.equal(prefilter.testAscii(Buffer.from(text, 'latin1')), expected, `round ${round}: ${JSON.stringify(text)}`);
  }
  assert.ok(positives > 2_000 && positives < 18_000, `${positives} of 20000 texts held an anchor`);
  // At the edges, where the characters a confirmation looks at are cut off: the first and the last character.
  for (const text of ['sk-abc', 'ghp_', 'x sk-', '"password"', 'the Bearer']) assert.equal(prefilter.testAscii(Buffer.from(text)), true, text);
  for (const text of ['task-1', 'disk-', '"password', 'PASSWOR', 'ea']) assert.equal(prefilter.testAscii(Buffer.from(text)), false, text);
  // A view into a larger buffer reads only its own bytes.
  const backing = Buffer.from('ghp_ in front, then clean text, then AKIA behind');
  assert.equal(prefilter.testAscii(backing.subarray(5, 36)), false);
  assert.equal(prefilter.testAscii(backing.subarray(3, 36)), false, '"p_ " is not a start');
  assert.equal(prefilter.testAscii(backing.subarray(0, 36)), true);
});

test('on ASCII bytes registered values are found as in text, also when they start outside ASCII (never, then)', () => {
  const values = ['hunter2-correct-horse', '\u00e9t\u00e9-password-42'];
  const prefilter = TrigramPrefilter.forLiterals(values);
  assert.equal(prefilter.testAscii(Buffer.from(`${'x'.repeat(70_000)}hunter2-correct-horse`)), true);
  assert.equal(prefilter.testAscii(Buffer.from('hunter2-correct-hors')), false);
  // "it" + "i-password-42" has the 7-bit start of the second value: a start found, and refused by the expression.
  assert.equal(prefilter.testAscii(Buffer.from('iti-password-42 iti-password-42')), false);
});
