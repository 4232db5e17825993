// Integration: the REAL CLIs' TUIs in a PTY (through the host's PtyProcess), talking to the local mock providers
// (test/mockProviders): each opens straight on its prompt (no onboarding, trust, API-key or sign-in screen), a
// message typed there is sent to the model with the stand-in key, the mock's answer is shown, and closing the
// terminal leaves no process of the session behind.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { waitFor } from '../helpers';
import { lastUserText, type MockProvider, startMockProvider } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, CLAUDE_TUI_READY, codex, codexTuiReady, processesWithEnv, PtyScreen, skipWithoutClis as skip } from './realClis';

const DIALOGS = /Do you trust|Detected a custom API key|Choose the text style|Sign in with ChatGPT|Select your login method/;

/** Opens the TUI, waits for each of `ready` in turn, types a message, waits for the mock's answer on screen; always closes the PTY. */
async function typedTurn(spec: ProcessInvocationSpec, home: string, ready: RegExp[], mock: MockProvider, homeVar: string): Promise<{ before: string; after: string }> {
  const screen = new PtyScreen(spec, baseEnv(home));
  try {
    let before = '';
    for (const pattern of ready) before = await screen.waitFor(pattern);
    const mark = await screen.submit('hello pelican');
    await screen.waitForText('mock reply to: hello pelican', mark);
    const after = screen.text();
    // Codex also asks the model for a task title (a request of its own quoting the prompt): look for the turn itself.
    assert.ok(mock.turns().some((turn) => lastUserText(turn) === 'hello pelican'), 'the typed message reached the model as the user turn');
    assert.ok(processesWithEnv(homeVar, spec.env[homeVar]).length > 0, 'the leftover check below sees the running CLI');
    return { before, after };
  } finally {
    await screen.close();
    // Reaping takes a moment after the kill; anything still there after that was left behind.
    await waitFor(() => processesWithEnv(homeVar, spec.env[homeVar]).length === 0, `no process with this test's ${homeVar} (left: ${processesWithEnv(homeVar, spec.env[homeVar]).join(', ')})`, 10_000);
  }
}

test('real Claude Code TUI against the Anthropic mock: prompt without dialogs, a typed message is answered on screen with the stand-in key', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const apiKey = 'sk-ant-standin-0123456789abcdefghijkl';
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { env: { ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: mock.baseUrl } }), { executable: claude });
  const { before, after } = await typedTurn(spec, home, CLAUDE_TUI_READY, mock, 'CLAUDE_CONFIG_DIR');
  assert.doesNotMatch(before, DIALOGS);
  assert.doesNotMatch(after, DIALOGS);
  assert.equal(mock.turns().length, 1, 'one model request for one message: no side requests (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC from the spec)');
  assert.deepEqual(new Set(mock.turns().map((turn) => turn.apiKey)), new Set([apiKey]));
  assert.deepEqual(mock.unhandled(), []);
});

test('real Codex TUI against the Responses mock (harness home provider): prompt without sign-in, a typed message is answered on screen with the stand-in key', { skip }, async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const apiKey = 'sk-openai-standin-0123456789';
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { env: { OPENAI_API_KEY: apiKey } }), { executable: codex, openaiEndpoint: { baseUrl: mock.baseUrl } });
  const { before, after } = await typedTurn(spec, home, codexTuiReady(dirs.workspace), mock, 'CODEX_HOME');
  assert.doesNotMatch(before, DIALOGS);
  assert.doesNotMatch(after, DIALOGS);
  assert.deepEqual(new Set(mock.turns().map((turn) => turn.apiKey)), new Set([apiKey]));
  assert.deepEqual(mock.unhandled(), []);
});
