// One Anthropic conversation, two harnesses: a key the Agent SDK returned resumes in the real Claude Code CLI, and a
// CLI session continues through the Agent SDK (same provider, same store under <aspHome>/claude-code/config).
// Real SDK, real CLI, the mock Anthropic API; skipped until scripts/install-harness-clis.mjs has run.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, runTurnNonInteractive } from '../../src-main/node/harness';
import { conversationOf, startMockProvider } from '../mockProviders';
import { baseEnv, claude, runHeadless, skipWithoutClis } from './realClis';
import { agentSdkDir, PROXY_KEY, skipWithoutAgentSdk, turnDirs, turnRequest } from './runTurnFixtures';

const skip = skipWithoutAgentSdk || skipWithoutClis;

function said(request: Parameters<typeof conversationOf>[0], role: string, text: string): boolean {
  return conversationOf(request).some((turn) => turn.role === role && turn.parts.some((part) => part.includes(text)));
}

test('an agent-sdk key resumes in the claude-code CLI, and a claude-code session continues through agent-sdk', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = turnDirs(t);
  const endpointEnv = { ANTHROPIC_BASE_URL: mock.baseUrl, ANTHROPIC_API_KEY: PROXY_KEY };
  const home = join(dirs.root, 'home');

  // SDK first, CLI second.
  const sdkTurn = await runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'the password is heron').request, { endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY }, agentSdkDir });
  assert.equal(sdkTurn.result.status, 'completed', JSON.stringify(sdkTurn.result));
  const { spec } = buildProcessInvocationSpec(
    { cpSessionId: 'cps_1', aspHome: dirs.aspHome, spec: {}, provider: 'anthropic', frontend: 'claude-code', interactionMode: 'headless', ioMode: 'pipes', cwd: dirs.workspace, env: endpointEnv, continuation: sdkTurn.continuation },
    { executable: claude, prompt: 'what was the password?' },
  );
  assert.deepEqual(spec.argv.slice(spec.argv.indexOf('--resume'), spec.argv.indexOf('--resume') + 2), ['--resume', sdkTurn.continuation?.key]);
  const cli = await runHeadless(spec, baseEnv(home));
  assert.equal(cli.code, 0, cli.stderr);
  assert.ok(said(mock.turns().at(-1)!, 'assistant', 'mock reply to: the password is heron'), 'the CLI sent the SDK turn\'s conversation');

  // CLI first (it names its session before it starts), SDK second.
  const fresh = buildProcessInvocationSpec(
    { cpSessionId: 'cps_2', aspHome: dirs.aspHome, spec: {}, provider: 'anthropic', frontend: 'claude-code', interactionMode: 'headless', ioMode: 'pipes', cwd: dirs.workspace, env: endpointEnv },
    { executable: claude, prompt: 'the colour is teal' },
  );
  const first = await runHeadless(fresh.spec, baseEnv(home));
  assert.equal(first.code, 0, first.stderr);
  const sdkResume = await runTurnNonInteractive(turnRequest('agent-sdk', dirs, 'what was the colour?', { continuation: fresh.spec.continuation }).request, {
    endpoint: { baseUrl: mock.baseUrl, apiKey: PROXY_KEY },
    agentSdkDir,
  });
  assert.equal(sdkResume.result.status, 'completed', JSON.stringify(sdkResume.result));
  assert.deepEqual(sdkResume.continuation, fresh.spec.continuation);
  assert.ok(said(mock.turns().at(-1)!, 'assistant', 'mock reply to: the colour is teal'), 'the SDK sent the CLI session\'s conversation');
});
