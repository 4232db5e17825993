import assert from 'node:assert/strict';
import { test } from 'node:test';
import { format, inspect } from 'node:util';
import { Secret } from '../../src-main/node/vault/secret';

// A marker that cannot appear by chance, so "the output does not contain it" means the value did not leak.
const VALUE = 'hunter2-7f3c9a1e-do-not-print';

function assertNoLeak(text: string, how: string): void {
  assert.ok(!text.includes(VALUE), `${how} revealed the secret`);
}

test('only expose() returns the value', () => {
  const secret = new Secret(VALUE);
  assert.equal(secret.expose(), VALUE);
  assert.equal(new Secret({ token: VALUE }).expose().token, VALUE);
});

test('string conversions say [REDACTED]', () => {
  const secret = new Secret(VALUE);
  assert.equal(String(secret), '[REDACTED]');
  assert.equal(`${secret}`, '[REDACTED]');
  assert.equal(secret.toString(), '[REDACTED]');
  assert.equal('' + secret, '[REDACTED]');
  assert.equal([secret].join(), '[REDACTED]');
});

test('JSON.stringify says [REDACTED], nested too', () => {
  const secret = new Secret(VALUE);
  assert.equal(JSON.stringify(secret), '"[REDACTED]"');
  assert.equal(JSON.stringify({ auth: { token: secret } }), '{"auth":{"token":"[REDACTED]"}}');
  assert.equal(JSON.stringify(new Secret({ token: VALUE })), '"[REDACTED]"');
});

test('util.inspect and util.format say [REDACTED], with every option that digs deeper', () => {
  const secret = new Secret(VALUE);
  assert.equal(inspect(secret), '[REDACTED]');
  assertNoLeak(inspect({ nested: [secret] }, { depth: Infinity, showHidden: true }), 'inspect nested');
  // Without the custom hook inspect falls back to the object's properties, and there are none to show.
  assertNoLeak(inspect(secret, { customInspect: false, showHidden: true, depth: Infinity, getters: true }), 'inspect customInspect:false');
  for (const spec of ['%s', '%o', '%O', '%j', '%d', '%i']) assertNoLeak(format(spec, secret), `util.format('${spec}')`);
  assertNoLeak(format(secret), 'util.format(secret)');
  assertNoLeak(new Error(`failed with ${secret}`).message, 'an error message');
});

test('console.log output says [REDACTED]', (t) => {
  const secret = new Secret(VALUE);
  const captured: string[] = [];
  // console.log/error/dir format through util.format/inspect; capture what they would write.
  t.mock.method(process.stdout, 'write', (chunk: string | Uint8Array) => (captured.push(String(chunk)), true));
  t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => (captured.push(String(chunk)), true));
  try {
    console.log(secret);
    console.log('token=%s', secret);
    console.log({ secret });
    console.error('%o', [secret]);
    console.dir(secret, { showHidden: true, depth: null });
    console.table([{ secret }]);
  } finally {
    t.mock.restoreAll();
  }
  const output = captured.join('');
  assert.match(output, /\[REDACTED\]/);
  assertNoLeak(output, 'console output');
});

test('no property holds the value: keys, spreads, assign, entries, structuredClone', () => {
  const secret = new Secret(VALUE);
  assert.deepEqual(Object.keys(secret), []);
  assert.deepEqual(Reflect.ownKeys(secret), []);
  assert.deepEqual(Object.getOwnPropertyNames(secret), []);
  assert.deepEqual({ ...secret }, {});
  assert.deepEqual(Object.assign({}, secret), {});
  assert.deepEqual(Object.entries(secret), []);
  const keysInLoop: string[] = [];
  for (const key in secret) keysInLoop.push(key);
  assert.deepEqual(keysInLoop, []);
  assertNoLeak(JSON.stringify(structuredClone(secret)), 'structuredClone');
  assertNoLeak(inspect(structuredClone(secret), { showHidden: true }), 'structuredClone');
});

test('a secret is frozen: nothing can be attached to it', () => {
  const secret = new Secret(VALUE);
  assert.ok(Object.isFrozen(secret));
  assert.equal(Reflect.set(secret, 'copy', VALUE), false);
  assert.throws(() => Object.defineProperty(secret, 'copy', { value: VALUE, enumerable: true }), TypeError);
  assert.deepEqual(Object.keys(secret), []);
});
