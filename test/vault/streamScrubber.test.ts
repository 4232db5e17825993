// Text that arrives in pieces (a process's output, read by read) is scrubbed as if it had come whole: wherever the
// reads cut it, a token of any kind, glued to anything, never comes out in parts; and what is let go stays in order.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { test } from 'node:test';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { StreamScrubber } from '../../src-main/node/vault/streamScrubber';
import { assertNoCanaryIn, hideCanaries } from './canaries';
import { gluedCanaries } from './gluedCanaries';

/** `text` cut at `cuts` random places. */
function pieces(text: string, cuts: number): string[] {
  const at = [...new Set(Array.from({ length: cuts }, () => randomInt(1, Math.max(2, text.length))))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const to of at) {
    out.push(text.slice(from, to));
    from = to;
  }
  out.push(text.slice(from));
  return out;
}

test('glued tokens of every kind, cut anywhere into pieces, come out scrubbed as the whole text would', () => {
  const canaries = gluedCanaries(20);
  const registry = new SecretRegistry();
  for (const canary of canaries) if (canary.registered) registry.register(new Secret(canary.value));
  const scrubber = new SecretScrubber(registry);
  try {
    for (const canary of canaries) {
      const text = `line before\n${canary.glued} and after\nlast line`;
      const stream = new StreamScrubber(scrubber);
      const out = pieces(text, randomInt(1, 12)).map((piece) => stream.push(piece)).join('') + stream.end();
      assert.equal(out, scrubber.scrubText(text), `#${canary.index} ${canary.kind}: pieces scrubbed differently from the whole`);
      assertNoCanaryIn([canary], out, `#${canary.index} ${canary.kind}`);
    }
  } catch (error) {
    throw new Error(hideCanaries(canaries, error instanceof Error ? error.message : String(error)));
  }
});

test('complete lines go out at once; only the unfinished one waits for its end', () => {
  const stream = new StreamScrubber(new SecretScrubber());
  assert.equal(stream.push('one\ntwo\nthr'), 'one\ntwo\n');
  assert.equal(stream.heldChars, 3);
  assert.equal(stream.push('ee\r\nfour'), 'three\r\n');
  assert.equal(stream.end(), 'four');
  assert.equal(stream.end(), '');
});

test('a key block longer than the stream holds goes out as its marker, and its rest up to the END line is dropped', () => {
  const canaries = gluedCanaries(1).filter((c) => c.kind === 'private-key');
  const [header, ...rest] = canaries[0].value.split('\n');
  const body = rest.slice(0, -1).join('\n');
  const footer = rest.at(-1)!;
  const stream = new StreamScrubber(new SecretScrubber(), 100);
  let out = stream.push(`before\n${header}\n`);
  for (let i = 0; i < 5; i++) out += stream.push(`${body}\n`);
  out += stream.push(`${footer}\nafter\n`) + stream.end();
  assertNoCanaryIn(canaries, out, 'the output');
  assert.equal(out, 'before\n[REDACTED:private-key]\nafter\n');
});
