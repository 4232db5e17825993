import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storedData } from '../../src-main/node/eventlog/eventRowData';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';

const TOKEN = `ghp_${'a1B2'.repeat(9)}`;

function scrubber(): SecretScrubber {
  const registry = new SecretRegistry();
  registry.register(new Secret('hunter2-correct-horse'));
  return new SecretScrubber(registry);
}

/** Output as the writer thread gets it: UTF-8 bytes in a plain Uint8Array (what crosses to its thread). */
const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

test('clean ASCII output is stored as the very bytes that came, not decoded and encoded again', () => {
  // Test-log lines ("PASS") hold a start of PASSWORD on every line: found, confirmed absent, passed over.
  const row = bytesOf('ok 1 PASS src/main.ts:12:7 --flag=value {"k":"v"} PASSING\r\n'.repeat(5000));
  const scrub = scrubber();
  // Nothing longer than the few characters around a start is decoded (toString is how a Buffer decodes).
  const toString = Buffer.prototype.toString;
  let decoded = 0;
  Buffer.prototype.toString = function (this: Buffer, ...args: Parameters<Buffer['toString']>) {
    decoded = Math.max(decoded, this.length);
    return toString.apply(this, args);
  } as Buffer['toString'];
  let stored;
  try {
    stored = storedData(row, scrub)!;
  } finally {
    Buffer.prototype.toString = toString;
  }
  assert.ok(decoded < 100, `a ${decoded}-byte piece was decoded`);
  assert.equal(stored.blob.buffer, row.buffer, 'the same memory, not a copy');
  assert.equal(stored.chars, row.length);
});

test('a secret in ASCII output is scrubbed wherever it stands in the row', () => {
  const clean = 'build step 42 ok\r\n'.repeat(20_000);
  for (const text of [`${TOKEN}\r\n${clean}`, `${clean}key=${TOKEN}\r\n${clean}`, `${clean}hunter2-correct-horse`]) {
    const stored = storedData(bytesOf(text), scrubber())!;
    const expected = scrubber().scrubText(text);
    assert.notEqual(expected, text);
    assert.equal(stored.blob.toString('utf8'), expected);
    assert.equal(stored.chars, expected.length);
    assert.equal(stored.blob.includes('a1B2a1B2'), false);
    assert.equal(stored.blob.includes('hunter2'), false);
  }
});

test('output that is not ASCII takes the text path: scrubbed, and counted in UTF-16 units', () => {
  const text = `résumé ✓ 中文 🙂 ${TOKEN} hunter2-correct-horse\r\n`;
  const stored = storedData(bytesOf(text), scrubber())!;
  const expected = scrubber().scrubText(text);
  assert.equal(stored.blob.toString('utf8'), expected);
  assert.equal(stored.chars, expected.length);
  const clean = 'résumé ✓ 中文 🙂\r\n';
  assert.equal(storedData(bytesOf(clean), scrubber())!.chars, clean.length);
});

test('bytes and text of the same output are stored alike, row after row of near-secrets', () => {
  const pieces = ['ghp_', 'gh', 'sk-', 'task-', 'AKIA', 'Bearer ', 'https://', 'u:p@h', 'PASSWORD=', 'PASS ', '"apiKey"', 'hunter2-', 'correct-horse', TOKEN, 'x', ' ', '\r\n'];
  let seed = 7;
  const next = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let round = 0; round < 2000; round++) {
    let text = '';
    for (let i = 0; i < 1 + next() * 20; i++) text += pieces[Math.floor(next() * pieces.length)];
    const fromBytes = storedData(bytesOf(text), scrubber())!;
    const fromText = storedData(text, scrubber())!;
    assert.equal(fromBytes.blob.toString('utf8'), fromText.blob.toString('utf8'), JSON.stringify(text));
    assert.equal(fromBytes.chars, fromText.chars);
  }
});
