import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertContinuationProvider,
  buildProcessInvocationSpec,
  getHarnessCapabilities,
  type HarnessError,
  providerOf,
  type BuildProcessInvocationSpecRequest,
} from '../../src-main/node/harness';
import { CLAUDE_KEY, CODEX_KEY, harnessDirs, request } from './harnessFixtures';

test('each frontend is typed by provider: agent-sdk and claude-code are anthropic, pi-sdk and codex-cli openai', () => {
  assert.equal(providerOf('agent-sdk'), 'anthropic');
  assert.equal(providerOf('claude-code'), 'anthropic');
  assert.equal(providerOf('pi-sdk'), 'openai');
  assert.equal(providerOf('codex-cli'), 'openai');
  assert.throws(() => providerOf('gemini-cli'), (error: HarnessError) => error.code === 'HARNESS_UNKNOWN_FRONTEND' && /use one of agent-sdk, claude-code, pi-sdk, codex-cli/.test(error.message));
});

test('capabilities are {provider, frontends, models}, one entry per provider', () => {
  const capabilities = getHarnessCapabilities();
  assert.deepEqual(
    capabilities.map((c) => ({ provider: c.provider, frontends: c.frontends })),
    [
      { provider: 'anthropic', frontends: ['agent-sdk', 'claude-code'] },
      { provider: 'openai', frontends: ['pi-sdk', 'codex-cli'] },
    ],
  );
  for (const c of capabilities) {
    assert.deepEqual(Object.keys(c).sort(), ['frontends', 'models', 'provider']);
    assert.ok(c.models.length > 0);
  }
});

test('a continuation of the other provider is refused with HARNESS_PROVIDER_MISMATCH and says why', () => {
  assert.throws(
    () => assertContinuationProvider('codex-cli', { provider: 'anthropic', key: CLAUDE_KEY }),
    (error: HarnessError) =>
      error.code === 'HARNESS_PROVIDER_MISMATCH' &&
      error.message.startsWith("this session's continuation is anthropic-typed; it cannot be resumed with codex-cli (openai)"),
  );
  assert.throws(() => assertContinuationProvider('agent-sdk', { provider: 'openai', key: CODEX_KEY }), { code: 'HARNESS_PROVIDER_MISMATCH' });
  assert.throws(() => assertContinuationProvider('pi-sdk', { provider: 'anthropic' }), { code: 'HARNESS_PROVIDER_MISMATCH' });
  // Within a provider the key moves freely (agent-sdk and claude-code share Anthropic's conversations).
  assert.doesNotThrow(() => assertContinuationProvider('agent-sdk', { provider: 'anthropic', key: CLAUDE_KEY }));
  assert.doesNotThrow(() => assertContinuationProvider('codex-cli', undefined));
});

test('buildProcessInvocationSpec refuses a mismatched continuation before writing anything, and a wrong request provider', (t) => {
  const dirs = harnessDirs(t);
  assert.throws(
    () => buildProcessInvocationSpec(request('codex-cli', dirs, { continuation: { provider: 'anthropic', key: CLAUDE_KEY } })),
    (error: HarnessError) => error.code === 'HARNESS_PROVIDER_MISMATCH' && /anthropic-typed; it cannot be resumed with codex-cli \(openai\)/.test(error.message),
  );
  assert.throws(() => buildProcessInvocationSpec(request('claude-code', dirs, { provider: 'openai' })), { code: 'HARNESS_PROVIDER_MISMATCH' });
  // An SDK frontend has no process to spawn.
  assert.throws(
    () => buildProcessInvocationSpec({ ...request('claude-code', dirs), frontend: 'agent-sdk' } as unknown as BuildProcessInvocationSpecRequest),
    { code: 'HARNESS_UNSUPPORTED_MODE' },
  );
  assert.throws(() => buildProcessInvocationSpec({ ...request('claude-code', dirs), frontend: 'aider' } as unknown as BuildProcessInvocationSpecRequest), { code: 'HARNESS_UNKNOWN_FRONTEND' });
});

test('the spec output carries the continuation typed by provider', (t) => {
  const dirs = harnessDirs(t);
  const claude = buildProcessInvocationSpec(request('claude-code', dirs)).spec;
  assert.equal(claude.provider, 'anthropic');
  assert.equal(claude.continuation?.provider, 'anthropic');
  const codex = buildProcessInvocationSpec(request('codex-cli', dirs, { continuation: { provider: 'openai', key: CODEX_KEY } })).spec;
  assert.deepEqual(codex.continuation, { provider: 'openai', key: CODEX_KEY });
});
