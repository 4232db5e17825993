// What runTurnNonInteractive refuses before any provider call, each with its typed HarnessError code: a
// continuation of the other provider, a CLI frontend, no endpoint, the Agent SDK not installed, a bad key. The mocks
// prove nothing was sent.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runTurnNonInteractive, type RunTurnNonInteractiveRequest } from '../../src-main/node/harness';
import { startMockProvider } from '../mockProviders';
import { PROXY_KEY, turnDirs, turnRequest } from './runTurnFixtures';

test('a continuation of the other provider is refused with HARNESS_PROVIDER_MISMATCH, for both SDK frontends, before anything is sent', async (t) => {
  const anthropic = await startMockProvider('anthropic');
  const openai = await startMockProvider('openai');
  t.after(() => Promise.all([anthropic.close(), openai.close()]));
  const dirs = turnDirs(t);
  const claudeKey = { provider: 'anthropic' as const, key: '5b1e0f8e-6a0d-4c1e-9b51-2f5f3d0c9a11' };
  await assert.rejects(runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'hi', { continuation: claudeKey }).request, { endpoint: { baseUrl: openai.baseUrl, apiKey: PROXY_KEY } }), {
    name: 'HarnessError',
    code: 'HARNESS_PROVIDER_MISMATCH',
    message: /anthropic-typed; it cannot be resumed with pi-sdk \(openai\)\. Resume it with agent-sdk or claude-code/,
  });
  await assert.rejects(
    runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'hi', { continuation: { provider: 'openai', key: 'resp_1' } }).request, { endpoint: { baseUrl: anthropic.baseUrl, apiKey: PROXY_KEY }, agentSdkDir: '/nonexistent' }),
    { code: 'HARNESS_PROVIDER_MISMATCH' },
  );
  assert.equal(anthropic.requests.length + openai.requests.length, 0);
});

test('the Agent SDK missing is HARNESS_SDK_MISSING, saying how to install it and where to point the host', async (t) => {
  const dirs = turnDirs(t);
  const saved = process.env.OMNI_AGENT_SDK_DIR;
  delete process.env.OMNI_AGENT_SDK_DIR;
  t.after(() => {
    if (saved !== undefined) process.env.OMNI_AGENT_SDK_DIR = saved;
  });
  const endpoint = { baseUrl: 'http://127.0.0.1:9', apiKey: PROXY_KEY };
  const how = /npm install --prefix <folder> @anthropic-ai\/claude-agent-sdk@0\.3\.330.*OMNI_AGENT_SDK_DIR/;
  const request = turnRequest('agent-sdk', dirs, 'hi').request;

  await assert.rejects(runTurnNonInteractive(request, { endpoint }), { code: 'HARNESS_SDK_MISSING', message: /no Agent SDK folder is configured/ });
  await assert.rejects(runTurnNonInteractive(request, { endpoint, agentSdkDir: join(dirs.root, 'not-installed') }), { code: 'HARNESS_SDK_MISSING', message: how });
  const other = join(dirs.root, 'other-package');
  mkdirSync(other);
  writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'left-pad', version: '1.0.0' }));
  await assert.rejects(runTurnNonInteractive(request, { endpoint, agentSdkDir: other }), { code: 'HARNESS_SDK_MISSING', message: /holds "left-pad", not @anthropic-ai\/claude-agent-sdk/ });
  process.env.OMNI_AGENT_SDK_DIR = join(dirs.root, 'from-env');
  await assert.rejects(runTurnNonInteractive(request, { endpoint }), { code: 'HARNESS_SDK_MISSING', message: /from-env holds no package\.json/ });
});

test('without an endpoint in options or request.env the turn is refused; the host\'s own OPENAI_API_KEY is never used', async (t) => {
  const dirs = turnDirs(t);
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = 'sk-real-key-in-host-env';
  process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
  t.after(() => {
    for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  await assert.rejects(runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'hi').request), { code: 'HARNESS_ENDPOINT_MISSING', message: /options\.endpoint.*OPENAI_BASE_URL and OPENAI_API_KEY in request\.env/ });
  await assert.rejects(runTurnNonInteractive(turnRequest('pi-sdk', dirs, 'hi').request, { endpoint: { baseUrl: 'file:///etc', apiKey: PROXY_KEY } }), { code: 'HARNESS_ENDPOINT_MISSING' });
});

test('other refusals: a CLI frontend, an empty prompt, a relative or missing cwd, a key that is not the provider\'s kind, a missing attachment', async (t) => {
  const dirs = turnDirs(t);
  const endpoint = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: PROXY_KEY };
  const refuse = (extra: Partial<RunTurnNonInteractiveRequest>, code: string) =>
    assert.rejects(runTurnNonInteractive({ ...turnRequest('pi-sdk', dirs, 'hi').request, ...extra } as RunTurnNonInteractiveRequest, { endpoint }), { code });
  await refuse({ frontend: 'codex-cli' as never }, 'HARNESS_UNSUPPORTED_MODE');
  await refuse({ frontend: 'gemini' as never }, 'HARNESS_UNKNOWN_FRONTEND');
  await refuse({ prompt: '  ' }, 'HARNESS_PROMPT_REQUIRED');
  await refuse({ cwd: 'workspace' }, 'HARNESS_CWD_NOT_ABSOLUTE');
  await refuse({ cwd: join(dirs.root, 'gone') }, 'HARNESS_CWD_MISSING');
  await refuse({ continuation: { provider: 'openai', key: 'resp 1; rm -rf' } }, 'HARNESS_BAD_CONTINUATION_KEY');
  await refuse({ attachments: ['missing.txt'] }, 'HARNESS_BAD_REQUEST');
  await assert.rejects(
    runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'hi', { continuation: { provider: 'anthropic', key: 'my-session' } }).request, { endpoint, agentSdkDir: '/nonexistent' }),
    { code: 'HARNESS_BAD_CONTINUATION_KEY' },
  );
});

test('a signal aborted before the call ends the turn as cancelled without a request to the provider', async (t) => {
  const openai = await startMockProvider('openai');
  t.after(() => openai.close());
  const dirs = turnDirs(t);
  const continuation = { provider: 'openai' as const, key: 'resp_kept' };
  const { request, events } = turnRequest('pi-sdk', dirs, 'hi', { continuation });
  const response = await runTurnNonInteractive(request, { endpoint: { baseUrl: openai.baseUrl, apiKey: PROXY_KEY }, signal: AbortSignal.abort() });
  assert.equal(response.result.status, 'cancelled');
  assert.equal(response.result.error?.code, 'HARNESS_TURN_CANCELLED');
  assert.deepEqual(response.continuation, continuation);
  assert.equal(events.length, 0);
  assert.equal(openai.requests.length, 0);
});
