import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostLog } from '../../src-main/node/base/hostLog';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { randomText, TOKEN_SHAPES } from '../vault/canaries';

function capturingLog(): { log: HostLog; registry: SecretRegistry; lines: string[] } {
  const registry = new SecretRegistry();
  const scrubber = new SecretScrubber(registry);
  const lines: string[] = [];
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text), write: (line) => lines.push(line), prefix: '[host]' });
  return { log, registry, lines };
}

test('an error carrying tokens in its message, stack, cause and properties is printed without them', () => {
  const { log, registry, lines } = capturingLog();
  const registered = randomText(20);
  registry.register(new Secret(registered));
  const github = TOKEN_SHAPES['github-classic']().value;
  const url = TOKEN_SHAPES['url-password']();
  const cause = new Error(`upstream said: bad credentials ${registered}`);
  const error = Object.assign(new Error(`GET ${url.text} failed with ${github}`, { cause }), {
    request: { headers: { authorization: `token ${github}` }, body: `{"password":"${registered}"}` },
  });
  log.error('session.create failed:', error);
  assert.equal(lines.length, 1);
  const line = lines[0];
  for (const secret of [registered, github, url.value]) assert.ok(!line.includes(secret), 'a secret reached the log');
  assert.ok(line.startsWith('[host] session.create failed: Error: GET'), 'the line says what failed');
  assert.match(line, /\[REDACTED:github-token\]/);
  assert.match(line, /\[REDACTED:registered\]/);
  assert.match(line, /\[cause\]: Error: upstream said: bad credentials/, 'the cause is still printed');
  assert.match(line, /at .*hostLog\.test\.ts/, 'the stack is still printed');
});

test('"%s" in a logged message is printed as is and does not consume the next argument', () => {
  const { log, lines } = capturingLog();
  log.error('100%s sure', 'next');
  assert.equal(lines[0], '[host] 100%s sure next\n');
});

test('a Secret handed to the log prints as [REDACTED]', () => {
  const { log, lines } = capturingLog();
  const value = randomText(5); // too short to be registered: only Secret's own redaction protects it
  log.error('config:', { token: new Secret(value) });
  assert.ok(!lines[0].includes(value));
  assert.match(lines[0], /token: \[REDACTED\]/);
});

test('redact() scrubs text that leaves the host some other way', () => {
  const { log } = capturingLog();
  const key = TOKEN_SHAPES.anthropic().value;
  assert.equal(log.redact(`could not start: ${key}`), 'could not start: [REDACTED:anthropic-key]');
});

test('by default lines go to the process standard error', () => {
  const { registry } = capturingLog();
  const scrubber = new SecretScrubber(registry);
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text) });
  const original = process.stderr.write;
  const written: string[] = [];
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    log.error('hello', 42);
  } finally {
    process.stderr.write = original;
  }
  assert.deepEqual(written, ['hello 42\n']);
});
