// Integration: with the spec's argv, env and harness home, the REAL CLIs talk to nobody but the model endpoint (a
// local mock): every IPv4/IPv6 connection a headless turn opens, in the CLI or any child, goes to the mock, and no
// name is looked up. Seen by tracing the turn with strace (skipped without it). This is what keeps a harness from
// reaching telemetry or plugin hosts past the credential proxy: without the home's settings, Codex 0.169.0 looks up
// ab.chatgpt.com and runs `git ls-remote https://github.com/openai/plugins.git` on every start; Claude Code's TUI
// looks up github.com to install the official plugin marketplace. (Not covered: the Codex TUI still looks up
// raw.githubusercontent.com for its announcement tip; no setting to turn that off was found in 0.169.0.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { type MockProvider, startMockProvider } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, CLAUDE_TUI_READY, codex, PtyScreen, runHeadless, skipWithoutClis } from './realClis';

function hasStrace(): boolean {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const skip = skipWithoutClis || (hasStrace() ? false : 'strace is not installed');

/** Network peers in an strace log: "address:port" of every IPv4/IPv6 connect and sendto/sendmsg destination. */
function peersIn(log: string): string[] {
  const peers: string[] = [];
  for (const line of log.split('\n')) {
    if (!/\b(connect|sendto|sendmsg|sendmmsg)\(/.test(line)) continue;
    const v4 = /sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/.exec(line);
    const v6 = /sin6_port=htons\((\d+)\).*inet_pton\(AF_INET6, "([^"]+)"/.exec(line);
    const match = v4 ?? v6;
    if (match) peers.push(`${match[2]}:${match[1]}`);
  }
  return [...new Set(peers)];
}

const traced = (spec: ProcessInvocationSpec, log: string) => ({ ...spec, argv: ['strace', '-f', '-qq', '-e', 'trace=connect,sendto,sendmsg,sendmmsg', '-o', log, ...spec.argv] });

async function tracedTurn(spec: ProcessInvocationSpec, home: string, log: string): Promise<string[]> {
  const run = await runHeadless(traced(spec, log), baseEnv(home));
  assert.equal(run.code, 0, run.stderr);
  return peersIn(readFileSync(log, 'utf8'));
}

function setup(t: Parameters<typeof harnessDirs>[0]) {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  return { dirs, home };
}

const onlyThe = (mock: MockProvider) => [new URL(mock.origin).host];

test('real Claude Code, headless turn: its only network peer is the model endpoint', { skip }, async (t) => {
  const { dirs, home } = setup(t);
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const { spec } = buildProcessInvocationSpec(
    request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { ANTHROPIC_API_KEY: 'sk-ant-standin-0123456789abcdefghij', ANTHROPIC_BASE_URL: mock.baseUrl } }),
    { executable: claude, prompt: 'hi' },
  );
  assert.deepEqual(await tracedTurn(spec, home, join(dirs.root, 'strace.log')), onlyThe(mock));
  assert.equal(mock.turns().length, 1);
});

test('real Codex, headless turn: its only network peer is the model endpoint (no analytics, no plugin sync)', { skip }, async (t) => {
  const { dirs, home } = setup(t);
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { OPENAI_API_KEY: 'sk-openai-standin' } }), {
    executable: codex,
    openaiEndpoint: { baseUrl: mock.baseUrl },
    prompt: 'hi',
  });
  assert.deepEqual(await tracedTurn(spec, home, join(dirs.root, 'strace.log')), onlyThe(mock));
  assert.equal(mock.turns().length, 1);
});

test('real Claude Code TUI, one typed message: its only network peer is the model endpoint (no marketplace install from GitHub)', { skip }, async (t) => {
  const { dirs, home } = setup(t);
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { env: { ANTHROPIC_API_KEY: 'sk-ant-standin-0123456789abcdefghij', ANTHROPIC_BASE_URL: mock.baseUrl } }), {
    executable: claude,
  });
  const log = join(dirs.root, 'strace.log');
  const screen = new PtyScreen(traced(spec, log), baseEnv(home));
  try {
    for (const pattern of CLAUDE_TUI_READY) await screen.waitFor(pattern);
    await screen.waitForText('mock reply to: hello', await screen.submit('hello'));
  } finally {
    await screen.close();
  }
  assert.deepEqual(peersIn(readFileSync(log, 'utf8')), onlyThe(mock));
});
