import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { canonicalJson } from '../../src-main/node/ledger/canonicalJson';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { PayloadTooDeepError, SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { randomText, TOKEN_SHAPES } from './canaries';

function setup(): { registry: SecretRegistry; scrubber: SecretScrubber } {
  const registry = new SecretRegistry();
  return { registry, scrubber: new SecretScrubber(registry) };
}

test('a deep payload loses every secret, in member names and values, in nested arrays and objects; the rest is kept', () => {
  const { registry, scrubber } = setup();
  const registered = randomText(20);
  registry.register(new Secret(registered));
  const github = TOKEN_SHAPES['github-classic']();
  const jwt = TOKEN_SHAPES.jwt();
  const hash = createHash('sha256').update(randomBytes(8)).digest('hex');
  const payload = {
    command: `git clone ${github.text}`,
    hash,
    count: 3,
    ok: true,
    none: null,
    nested: {
      list: ['plain', `prefix ${registered} suffix`, [jwt.value, { deeper: [registered] }], 7],
      [github.value]: 'a secret used as a member name',
    },
  };
  const scrubbed = scrubber.scrubPayload(payload);
  const text = JSON.stringify(scrubbed);
  for (const secret of [registered, github.value, jwt.value]) assert.ok(!text.includes(secret), 'a secret survived scrubbing');
  assert.deepEqual(scrubbed, {
    command: `git clone ${github.text.replace(github.value, '[REDACTED:github-token]')}`,
    hash,
    count: 3,
    ok: true,
    none: null,
    nested: {
      list: ['plain', 'prefix [REDACTED:registered] suffix', ['[REDACTED:jwt]', { deeper: ['[REDACTED:registered]'] }], 7],
      '[REDACTED:github-token]': 'a secret used as a member name',
    },
  });
  assert.ok(text.includes(hash), 'the 64-hex hash is kept');
});

test('a clean payload comes back as the same object, and clean branches of a dirty one are shared, not copied', () => {
  const { scrubber } = setup();
  const clean = { terminalId: 'term_abc', cwd: '/home/someone/project', pid: 4242, nested: { list: [1, 'two'] } };
  assert.equal(scrubber.scrubPayload(clean), clean);
  const dirty = { clean: clean.nested, dirty: { url: `https://u:${randomText(12)}@example.com/` } };
  const scrubbed = scrubber.scrubPayload(dirty);
  assert.notEqual(scrubbed, dirty);
  assert.equal(scrubbed.clean, clean.nested);
  assert.match(JSON.stringify(dirty.dirty), /u:[A-Za-z0-9]{12}@/, 'the input is not modified');
});

test('members named like credentials lose their value whatever it looks like; names and handles are kept', () => {
  const { scrubber } = setup();
  const scrubbed = scrubber.scrubPayload({
    password: 'hunter2',
    apiKey: 'abc',
    'X-Api-Key': 'abc',
    client_secret: 12345,
    Authorization: 'Bearer x',
    headers: [{ cookie: 'session=1' }],
    passwordHint: 'the usual',
    token: 'vault-handle-7',
    secret: 'github',
    emptyPassword: { password: '' },
  });
  assert.deepEqual(scrubbed, {
    password: '[REDACTED:secret-field]',
    apiKey: '[REDACTED:secret-field]',
    'X-Api-Key': '[REDACTED:secret-field]',
    client_secret: '[REDACTED:secret-field]',
    Authorization: '[REDACTED:secret-field]',
    headers: [{ cookie: '[REDACTED:secret-field]' }],
    passwordHint: 'the usual',
    token: 'vault-handle-7',
    secret: 'github',
    emptyPassword: { password: '' },
  });
});

test('two member names that scrub to the same marker keep both values', () => {
  const { scrubber } = setup();
  const a = TOKEN_SHAPES['github-classic']().value;
  const b = TOKEN_SHAPES['github-classic']().value;
  const scrubbed = scrubber.scrubPayload({ [a]: 1, [b]: 2, '[REDACTED:github-token]#3': 3 });
  assert.deepEqual(Object.values(scrubbed).sort(), [1, 2, 3]);
  assert.ok(!JSON.stringify(scrubbed).includes(a) && !JSON.stringify(scrubbed).includes(b));
});

test('a member named "__proto__" (from parsed JSON) stays a member and is scrubbed like any other', () => {
  const { scrubber } = setup();
  const token = TOKEN_SHAPES.slack().value;
  const payload = JSON.parse(`{"__proto__": "${token}", "other": "${token}"}`) as Record<string, unknown>;
  const scrubbed = scrubber.scrubPayload(payload);
  assert.equal(Object.getPrototypeOf(scrubbed), Object.prototype);
  assert.deepEqual(Object.keys(scrubbed), ['__proto__', 'other']);
  assert.equal(canonicalJson(scrubbed), '{"__proto__":"[REDACTED:slack-token]","other":"[REDACTED:slack-token]"}');
});

test('scrubbing is idempotent: markers are never scrubbed again', () => {
  const { registry, scrubber } = setup();
  registry.register(new Secret(randomText(10)));
  for (const make of Object.values(TOKEN_SHAPES)) {
    const once = scrubber.scrubPayload({ text: make().text, password: 'x' });
    assert.equal(scrubber.scrubPayload(once), once);
  }
});

test('a payload that refers to itself (or nests absurdly deep) is refused with a typed error, not a stack overflow', () => {
  const { scrubber } = setup();
  const loop: Record<string, unknown> = { name: 'loop' };
  loop.self = loop;
  assert.throws(() => scrubber.scrubPayload(loop), PayloadTooDeepError);
  assert.throws(() => scrubber.scrubPayload(loop), /nests more than 200 levels deep \(or refers to itself\)/);
});

test('values that are not plain JSON are passed through for the ledger to refuse', () => {
  const { scrubber } = setup();
  const when = new Date(0);
  const payload = { when };
  assert.equal(scrubber.scrubPayload(payload), payload);
});

test('a registration made after the scrubber was built is honoured at the next scrub', () => {
  const { registry, scrubber } = setup();
  const value = randomText(12);
  assert.deepEqual(scrubber.scrubPayload({ v: value }), { v: value });
  const registration = registry.register(new Secret(value));
  assert.deepEqual(scrubber.scrubPayload({ v: value }), { v: '[REDACTED:registered]' });
  registration.dispose();
  assert.deepEqual(scrubber.scrubPayload({ v: value }), { v: value });
});

test('"sk-" inside a word is not a key ("task-1234567890abcdefghij" is kept); "sk-" keys where a token starts still go', () => {
  const { scrubber } = setup();
  const slug = 'task-1234567890abcdefghij';
  assert.equal(scrubber.scrubText(`npm run ${slug}`), `npm run ${slug}`);
  const payload = { argv: ['npm', 'run', slug], cwd: `/work/${slug}` };
  assert.equal(scrubber.scrubPayload(payload), payload);
  const legacy = `sk-${'a1B2c3D4'.repeat(6)}`;
  const project = `sk-proj-${'Zy9_xW8-'.repeat(6)}`;
  const anthropic = `sk-ant-api03-${'Qr7sT6uV'.repeat(12)}AA`;
  assert.equal(scrubber.scrubText(legacy), '[REDACTED:openai-key]');
  assert.equal(scrubber.scrubText(`key=${project}; "${legacy}" /${anthropic}`), 'key=[REDACTED:openai-key]; "[REDACTED:openai-key]" /[REDACTED:anthropic-key]');
  assert.deepEqual(scrubber.scrubPayload({ argv: ['curl', '-H', `x: ${legacy}`, slug] }), { argv: ['curl', '-H', 'x: [REDACTED:openai-key]', slug] });
});
