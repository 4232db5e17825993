// Integration: the REAL Claude Code CLI, headless, against the mock Anthropic API (test/mockProviders), asks for
// tool permission through the app: the mock's model answers the prompt with a Write tool_use, Claude Code calls our
// --permission-prompt-tool, the request becomes a consent card of the session, and the user's answer decides
// whether the file is written. The consent engine runs on real SQLite with the real ledger.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { ConsentPrompt } from '../../src-preload/contract';
import { UiConsentChannel } from '../../src-main/node/consent/uiConsentChannel';
import { buildProcessInvocationSpec, harnessStdio } from '../../src-main/node/harness';
import { PermissionPromptServer } from '../../src-main/node/harness/permissionPrompt';
import { openConsent, type ConsentFixture } from '../consent/consentFixture';
import { waitFor } from '../helpers';
import { conversationOf, startMockProvider, type MockProvider, type MockToolCall } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, skipWithoutClis as skip } from './realClis';
import { writeToolScript } from './writeToolScript';

const SESSION = 'ses_realCliPermission';
const FILE_CONTENT = 'written by claude code';

interface Run {
  consent: ConsentFixture;
  channel: UiConsentChannel;
  mock: MockProvider;
  server: PermissionPromptServer;
  target: string;
  /** The CLI's exit code, once it has exited. */
  exited: Promise<number | null>;
  stderr(): string;
  cards(): ConsentPrompt[];
}

async function startRun(t: TestContext, options: { watchCards?: boolean; call?: (workspace: string) => MockToolCall } = {}): Promise<Run> {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const target = join(dirs.workspace, 'hello.txt');
  const consent = openConsent(t, { promptTimeoutMs: 60_000 });
  const channel = new UiConsentChannel();
  consent.engine.attachChannel(channel);
  if (options.watchCards !== false) {
    const watching = channel.watch(SESSION, () => {});
    t.after(() => watching.dispose());
  }
  const call = options.call?.(dirs.workspace) ?? { name: 'Write', input: { file_path: target, content: FILE_CONTENT } };
  const mock = await startMockProvider('anthropic', { script: writeToolScript(() => call) });
  const server = await PermissionPromptServer.open(consent.engine, { agentId: 'claude-code', sessionId: SESSION, workspace: dirs.workspace });
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { ANTHROPIC_API_KEY: 'sk-ant-test-stand-in' } }), {
    executable: claude,
    prompt: 'Write hello.txt',
    permissionPromptTool: server.invocation,
  });
  assert.ok(spec.argv.includes('--permission-prompt-tool'));
  const stdio = harnessStdio(spec);
  assert.equal(stdio.kind, 'spawn');
  const [command, ...args] = spec.argv;
  const child = spawn(command, args, {
    cwd: spec.cwd,
    env: { ...baseEnv(home), ANTHROPIC_BASE_URL: mock.baseUrl, ...spec.env },
    stdio: stdio.kind === 'spawn' ? stdio.stdio : 'pipe',
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((done) => child.once('close', done));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  t.after(async () => {
    child.kill('SIGKILL');
    await exited;
    clearTimeout(timer);
    await server.close();
    await mock.close();
  });
  return { consent, channel, mock, server, target, exited, stderr: () => stderr, cards: () => channel.pending(SESSION) };
}

/** Live processes whose command line names `text` (the relay is started with the socket path as its argument). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // gone
      }
    })
    .map(Number);
}

/** What Claude Code told the model the Write call did (the tool_result of the follow-up turn). */
function toolResultText(mock: MockProvider): string | undefined {
  for (const req of mock.turns()) {
    const tool = conversationOf(req).find((turn) => turn.role === 'tool');
    if (tool) return tool.text;
  }
  return undefined;
}

const card = (run: Run) => waitFor(() => run.cards()[0], 'a consent card from Claude Code', 90_000).catch((error: Error) => {
  throw new Error(`${error.message}; stderr: ${run.stderr().slice(0, 2000)}`);
});

test('real Claude Code: allowing the consent card makes the CLI write the file, and the ledger has the grant', { skip }, async (t) => {
  const run = await startRun(t);
  const prompt = await card(run);
  assert.equal(prompt.capability, 'files.write');
  assert.equal(prompt.target, 'hello.txt');
  assert.equal(prompt.agentId, 'claude-code');
  assert.equal(existsSync(run.target), false, 'nothing is written before the answer');
  assert.equal(processesNaming(run.server.socketPath).length, 1, 'Claude Code runs the relay while it waits');
  run.channel.answer(prompt.id, { kind: 'allow_once' });
  assert.equal(await run.exited, 0, run.stderr());
  assert.equal(readFileSync(run.target, 'utf8'), FILE_CONTENT);
  // The relay Claude Code started for the prompt went with it.
  await waitFor(() => processesNaming(run.server.socketPath).length === 0, 'no relay process left');
  const [grant] = run.consent.entries('consent.grant');
  assert.equal(grant.actor, 'user');
  assert.equal(grant.sessionId, SESSION);
  assert.equal(grant.payload.capability, 'files.write');
  assert.equal(run.consent.entries('consent.deny').length, 0);
  const told = toolResultText(run.mock);
  t.diagnostic(`tool result: ${told}`);
  assert.ok(told !== undefined, 'the model got the Write result');
  assert.doesNotMatch(told, /denied/i);
});

test('real Claude Code: denying the card keeps the file unwritten, the model is told why, and the ledger has the denial', { skip }, async (t) => {
  const run = await startRun(t);
  const prompt = await card(run);
  run.channel.answer(prompt.id, { kind: 'deny' });
  assert.equal(await run.exited, 0, run.stderr());
  assert.equal(existsSync(run.target), false);
  assert.match(toolResultText(run.mock) ?? '', /Denied by Omni Shell's consent: the user denied it/);
  const [deny] = run.consent.entries('consent.deny');
  assert.equal(deny.actor, 'user');
  assert.equal(deny.payload.capability, 'files.write');
  assert.equal(deny.payload.target, 'hello.txt');
  assert.equal(run.consent.entries('consent.grant').length, 0);
});

test('real Claude Code: with no consent card open for the session the write waits for one; a card opened later is asked, and its denial holds', { skip }, async (t) => {
  const run = await startRun(t, { watchCards: false });
  const shown: ConsentPrompt[] = [];
  await waitFor(() => run.channel.pending(SESSION).length === 1, 'the prompt waiting with no card open');
  assert.equal(run.consent.entries('consent.deny').length, 0, 'nobody watching is not an answer');
  const watching = run.channel.watch(SESSION, (event) => event.kind === 'pending' && shown.push(event.prompt));
  t.after(() => watching.dispose());
  assert.equal(shown.length, 1);
  run.channel.answer(shown[0].id, { kind: 'deny' });
  assert.equal(await run.exited, 0, run.stderr());
  assert.equal(existsSync(run.target), false);
  assert.match(toolResultText(run.mock) ?? '', /Denied by Omni Shell's consent: the user denied it/);
});

test('real Claude Code: the host gone while the card is showing leaves the file unwritten', { skip }, async (t) => {
  const run = await startRun(t);
  await card(run);
  await run.server.close();
  const code = await run.exited;
  const told = toolResultText(run.mock);
  t.diagnostic(`exit ${code}; tool result: ${told}`);
  assert.equal(existsSync(run.target), false);
  assert.doesNotMatch(told ?? '', /File created/);
  await waitFor(() => run.cards().length === 0, 'the card withdrawn');
});

test('real Claude Code: a Bash call is asked for as process.exec of exactly that command, and runs once allowed', { skip }, async (t) => {
  const run = await startRun(t, { call: () => ({ name: 'Bash', input: { command: 'touch made-by-bash', description: 'make a marker file' } }) });
  const prompt = await card(run);
  assert.equal(prompt.capability, 'process.exec');
  assert.equal(prompt.action, 'touch made-by-bash');
  assert.match(prompt.reason, /make a marker file/);
  run.channel.answer(prompt.id, { kind: 'allow_once' });
  assert.equal(await run.exited, 0, run.stderr());
  assert.equal(existsSync(join(run.target, '..', 'made-by-bash')), true);
  assert.equal(run.consent.entries('consent.grant')[0].payload.capability, 'process.exec');
});
