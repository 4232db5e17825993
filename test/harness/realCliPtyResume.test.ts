// Integration: resuming a conversation in the REAL TUIs (what the host does when the user reopens a session after
// the app closed), against the local mock providers. The conversation's earlier exchange is sent to the model again
// with the new message, under the same key.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { conversationOf, lastUserText, type MockProvider, startMockProvider } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, CLAUDE_TUI_READY, codex, codexTuiReady, PtyScreen, runHeadless, skipWithoutClis as skip } from './realClis';

/** Opens the TUI, waits for each of `ready`, types `message`, waits for its answer; returns the request that carried it. */
async function typeInTui(spec: ProcessInvocationSpec, home: string, ready: RegExp[], message: string, mock: MockProvider) {
  const screen = new PtyScreen(spec, baseEnv(home));
  try {
    for (const pattern of ready) await screen.waitFor(pattern);
    const mark = await screen.submit(message);
    await screen.waitForText(`mock reply to: ${message}`, mark);
    const carrying = mock.turns().find((turn) => lastUserText(turn) === message);
    assert.ok(carrying, `a request carried ${message}`);
    return { request: carrying, screen: screen.text() };
  } finally {
    await screen.close();
  }
}

const dialogue = (turns: { role: string; text: string }[]) => turns.filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => `${t.role}: ${t.text}`);

test('real Claude Code TUI: a session started with --session-id and closed resumes in a new TUI (--resume), which sends the first exchange again', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const env = { ANTHROPIC_API_KEY: 'sk-ant-standin-0123456789abcdefghij', ANTHROPIC_BASE_URL: mock.baseUrl };
  const first = buildProcessInvocationSpec(request('claude-code', dirs, { env }), { executable: claude });
  assert.equal(first.spec.argv[1], '--session-id');
  await typeInTui(first.spec, home, CLAUDE_TUI_READY, 'remember pelican', mock);

  // The app closed (the PTY was killed); the host reopens the session with the stored key and cwd.
  const again = buildProcessInvocationSpec(request('claude-code', dirs, { env, continuation: first.spec.continuation }), { executable: claude, originCwd: dirs.workspace });
  assert.deepEqual(again.spec.argv.slice(1, 3), ['--resume', first.spec.continuation!.key!]);
  const { request: resumed, screen } = await typeInTui(again.spec, home, CLAUDE_TUI_READY, 'which bird', mock);
  assert.ok(screen.replace(/\s+/g, '').includes('mockreplyto:rememberpelican'), 'the resumed TUI shows the earlier answer');
  const said = dialogue(conversationOf(resumed));
  assert.ok(said.some((line) => line.startsWith('user: ') && line.includes('remember pelican')), JSON.stringify(said).slice(0, 1500));
  assert.ok(said.includes('assistant: mock reply to: remember pelican'), JSON.stringify(said).slice(0, 1500));
  // Claude Code 2.1.330 names its session in a header: the resumed TUI continues under the same key.
  assert.equal(resumed.headers['x-claude-code-session-id'], first.spec.continuation!.key);
});

test('real Codex: a thread started headless (codex exec) continues in the TUI (codex resume KEY), which sends the first exchange again', { skip }, async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  // TMPDIR beside the harness home (not above it): see the CODEX_HOME-in-temp trap.
  const env = { OPENAI_API_KEY: 'sk-openai-standin', TMPDIR: join(dirs.root, 'tmp') };
  mkdirSync(env.TMPDIR);
  const options = { executable: codex, openaiEndpoint: { baseUrl: mock.baseUrl } };
  const first = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env }), { ...options, prompt: 'remember pelican' });
  const run = await runHeadless(first.spec, baseEnv(home));
  assert.equal(run.code, 0, run.stderr);
  const key = run.events.find((e) => e.type === 'thread.started')?.thread_id as string;

  const tui = buildProcessInvocationSpec(request('codex-cli', dirs, { env, continuation: { provider: 'openai', key } }), options);
  assert.deepEqual(tui.spec.argv.slice(1, 2), ['resume']);
  assert.equal(tui.spec.argv.at(-1), key);
  const { request: resumed, screen } = await typeInTui(tui.spec, home, codexTuiReady(dirs.workspace), 'which bird', mock);
  assert.ok(screen.replace(/\s+/g, '').includes('mockreplyto:rememberpelican'), 'the resumed TUI shows the earlier answer');
  const said = dialogue(conversationOf(resumed));
  assert.ok(said.includes('user: remember pelican'), JSON.stringify(said).slice(0, 1500));
  assert.ok(said.includes('assistant: mock reply to: remember pelican'), JSON.stringify(said).slice(0, 1500));
  assert.ok(resumed.headers['x-codex-window-id']?.startsWith(key), `the TUI continues thread ${key}: ${resumed.headers['x-codex-window-id']}`);
});
