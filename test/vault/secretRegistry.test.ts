import assert from 'node:assert/strict';
import { test } from 'node:test';
import { format, inspect } from 'node:util';
import { Secret } from '../../src-main/node/vault/secret';
import { MIN_SCRUBBED_SECRET_CHARS, SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { randomText } from './canaries';

function setup(): { registry: SecretRegistry; scrubber: SecretScrubber } {
  const registry = new SecretRegistry();
  return { registry, scrubber: new SecretScrubber(registry) };
}

test('a registered value is scrubbed wherever it occurs, inside longer strings too, until its registration is disposed', () => {
  const { registry, scrubber } = setup();
  const value = randomText(20);
  const text = `connect with x${value}y and again: ${value}`;
  assert.equal(scrubber.scrubText(text), text, 'nothing is scrubbed before registration');
  const registration = registry.register(new Secret(value));
  assert.equal(registration.scrubbed, true);
  assert.equal(scrubber.scrubText(text), 'connect with x[REDACTED:registered]y and again: [REDACTED:registered]');
  registration.dispose();
  assert.equal(scrubber.scrubText(text), text, 'a disposed registration no longer scrubs');
  registration.dispose(); // twice is harmless
  assert.equal(registry.size, 0);
});

test('registrations are counted: the value stays known until the last one is disposed', () => {
  const { registry, scrubber } = setup();
  const value = randomText(16);
  const first = registry.register(new Secret(value));
  const second = registry.register(new Secret(value));
  first.dispose();
  first.dispose(); // disposing one twice must not release the other
  assert.equal(scrubber.scrubText(value), '[REDACTED:registered]');
  second.dispose();
  assert.equal(scrubber.scrubText(value), value);
});

test(`values shorter than ${MIN_SCRUBBED_SECRET_CHARS} characters are not searched for, and the registration says so`, () => {
  const { registry, scrubber } = setup();
  const short = registry.register(new Secret('1234567'));
  assert.equal(short.scrubbed, false);
  // A 7-character value would be found by chance in ids, hashes and words all over the ledger.
  assert.equal(scrubber.scrubText('order 12345678 shipped'), 'order 12345678 shipped');
  assert.equal(registry.register(new Secret('12345678')).scrubbed, true);
});

test('the longer of two overlapping values is removed whole, not just its shorter prefix', () => {
  const { registry, scrubber } = setup();
  const long = randomText(24);
  registry.register(new Secret(long.slice(0, 12)));
  registry.register(new Secret(long));
  assert.equal(scrubber.scrubText(`[${long}]`), '[[REDACTED:registered]]');
});

test('a registered value is removed whole even where a token pattern would have matched only part of it', () => {
  const { registry, scrubber } = setup();
  const value = `${randomText(12)}!${randomText(12)}`;
  registry.register(new Secret(value));
  const scrubbed = scrubber.scrubText(`Authorization: Bearer ${value}`);
  assert.ok(!scrubbed.includes(value.split('!')[1]), 'the part after the pattern stopped survived');
  assert.equal(scrubbed, 'Authorization: Bearer [REDACTED:registered]');
});

test('the forms a value takes in text are scrubbed too: without surrounding whitespace, JSON-escaped, percent-encoded', () => {
  const { registry, scrubber } = setup();
  const value = `p@ss "word"/${randomText(10)}`;
  registry.register(new Secret(`${value}\n`)); // as read from a file
  assert.equal(scrubber.scrubText(`login ${value} ok`), 'login [REDACTED:registered] ok');
  assert.equal(scrubber.scrubText(JSON.stringify({ pw: value })), '{"pw":"[REDACTED:registered]"}');
  assert.equal(scrubber.scrubText(`https://example.com/?q=${encodeURIComponent(value)}`), 'https://example.com/?q=[REDACTED:registered]');
});

test('values with regular-expression characters match literally', () => {
  const { registry, scrubber } = setup();
  const value = `a.b*c+d?(e)[f]{g}|h^$\\${randomText(6)}`;
  registry.register(new Secret(value));
  assert.equal(scrubber.scrubText(`x${value}x`), 'x[REDACTED:registered]x');
  assert.equal(scrubber.scrubText('aXb*c+d?(e)[f]{g}|h^$\\'), 'aXb*c+d?(e)[f]{g}|h^$\\', 'a "." in the value is not a wildcard');
});

test('neither the registry nor the scrubber shows a value when printed, inspected or serialized', () => {
  const { registry, scrubber } = setup();
  const value = randomText(20);
  registry.register(new Secret(value));
  for (const [how, text] of [
    ['inspect(registry)', inspect(registry, { showHidden: true, depth: Infinity })],
    ['inspect(scrubber)', inspect(scrubber, { showHidden: true, depth: Infinity })],
    ['format %o', format('%o %O', registry, scrubber)],
    ['JSON', JSON.stringify({ registry, scrubber })],
    ['String', `${String(registry)} ${String(scrubber)}`],
  ]) {
    assert.ok(!text.includes(value), `${how} revealed a registered value`);
  }
});

test('register refuses a Secret that does not hold a string, saying what it got', () => {
  const { registry } = setup();
  assert.throws(() => registry.register(new Secret(42) as unknown as Secret<string>), /takes a Secret<string>; this one holds a number/);
});
