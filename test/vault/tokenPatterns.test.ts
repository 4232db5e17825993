import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { newId } from '../../src-main/node/base/ids';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { TOKEN_PATTERNS } from '../../src-main/node/vault/tokenPatterns';
import { randomText, TOKEN_SHAPES } from './canaries';

const scrubber = new SecretScrubber();
/** Every shape is tried with this many fresh random tokens. */
const ROUNDS = 25;

for (const [shape, make] of Object.entries(TOKEN_SHAPES)) {
  test(`${shape}: the credential is replaced by its marker and the text around it is kept`, () => {
    for (let round = 0; round < ROUNDS; round++) {
      const sample = make();
      const marker = `[REDACTED:${sample.label}]`;
      // A key block goes whole, BEGIN and END lines included; everything else loses only the credential.
      const expected = shape === 'private-key' ? `${marker}\n` : sample.text.split(sample.value).join(marker);
      const scrubbed = scrubber.scrubText(sample.text);
      // Messages show the text with the token blanked out: even fake tokens stay out of test output.
      assert.ok(scrubbed === expected, `round ${round}: got ${scrubbed.split(sample.value).join('<token>')}, expected ${expected}`);
    }
  });
}

test('tokens are found wherever text puts them: URL paths, quotes, JSON, assignments, line starts and ends', () => {
  const token = `ghp_${randomText(36)}`;
  for (const text of [
    token,
    `https://api.example.com/tokens/${token}/revoke`,
    `"${token}"`,
    `'${token}'`,
    JSON.stringify({ token }),
    `GH_TOKEN=${token}`,
    `token:${token}`,
    `(${token})`,
    `line one\n${token}\nline three`,
    `<${token}>`,
  ]) {
    const scrubbed = scrubber.scrubText(text);
    assert.ok(!scrubbed.includes(token), `a token survived in: ${text.replace(token, '<token>')}`);
  }
});

test('an unfinished private key block is removed to the end of the text', () => {
  const body = randomText(64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
  const scrubbed = scrubber.scrubText(`key follows\n-----BEGIN EC PRIVATE KEY-----\n${body}\n${body.slice(0, 20)}`);
  assert.equal(scrubbed, 'key follows\n[REDACTED:private-key]');
});

test('URL credentials: the password goes, the user and host stay, an "@" inside the password included', () => {
  const password = `${randomText(10)}@${randomText(6)}`;
  assert.equal(scrubber.scrubText(`postgres://app:${password}@db.internal:5432/main`), 'postgres://app:[REDACTED:url-password]@db.internal:5432/main');
});

test('things that only look random are left alone: hashes, uuids, ids, paths, base64 digests, numbers', () => {
  const keep = [
    createHash('sha256').update(randomBytes(32)).digest('hex'), // a ledger hash
    createHash('sha1').update(randomBytes(8)).digest('hex'), // a git commit
    randomUUID(),
    newId('ses'),
    newId('term'),
    `sha512-${createHash('sha512').update(randomBytes(8)).digest('base64')}`,
    '/home/someone/projects/omniscient-shell/src-main/node/vault/secretScrubber.ts',
    'C:\\Users\\someone\\AppData\\Roaming\\Omniscient Shell\\memory\\sessions.db',
    '~/.ssh/id_ed25519',
    'https://example.com:8443/path/to/page?page=2&sort=desc#top',
    'ssh://git@github.com/acme/app.git',
    'git@github.com:acme/app.git',
    'mailto:someone@example.com',
    '2025-10-30T12:34:56.789Z',
    '1.2.3-beta.4+build.5',
    'MAX_TOKENS=100000000',
  ];
  for (const text of keep) assert.equal(scrubber.scrubText(text), text, `changed: ${text}`);
});

test('prose that mentions tokens, keys and authorization is left alone', () => {
  const prose = [
    'Basic authentication is disabled; use a personal access token instead.',
    'The bearer of this message has authorization to proceed.',
    'Bearer tokens are sent in the Authorization header.',
    'the task-runner-for-everything-in-this-repository finished',
    'sk-learn-style-pipelines-are-not-api-keys-at-all',
    'set TOKEN_LIMIT and PASSWORD_POLICY in the settings',
    'const SECRET_FIELD = "secret-field";',
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
    '-----BEGIN CERTIFICATE-----',
  ];
  for (const text of prose) assert.equal(scrubber.scrubText(text), text, `changed: ${text}`);
});

test("the project's README passes through unchanged (it is full of ids, URLs, paths and the word token)", () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const scrubbed = scrubber.scrubText(readme);
  if (scrubbed !== readme) {
    const changed = readme.split('\n').findIndex((line, i) => line !== scrubbed.split('\n')[i]);
    assert.fail(`README.md line ${changed + 1} was changed by the scrubber: a false positive`);
  }
});

test("every pattern's anchor finds something in every text the pattern matches (the fast path never skips a token)", () => {
  for (const make of Object.values(TOKEN_SHAPES)) {
    for (let round = 0; round < ROUNDS; round++) {
      const { text } = make();
      for (const pattern of TOKEN_PATTERNS) {
        if (new RegExp(pattern.source).test(text)) {
          assert.ok(new RegExp(pattern.anchor).test(text), `${pattern.label}: matched a text its anchor does not find`);
        }
      }
    }
  }
});

test('each pattern is written as the scrubber needs: no capturing groups except a final "secret"', () => {
  for (const pattern of TOKEN_PATTERNS) {
    const groups = [...pattern.source.matchAll(/\((?!\?)|\(\?<(?![=!])(\w+)>/g)];
    for (const group of groups) assert.equal(group[1], 'secret', `${pattern.label} has a capturing group other than (?<secret>…)`);
    assert.ok(groups.length <= 1, `${pattern.label} has more than one secret group`);
  }
});
