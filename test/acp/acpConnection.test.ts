import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { AcpConnection, type AcpClientHandlers } from '../../src-main/node/acp/acpConnection';
import { AcpError } from '../../src-main/node/acp/acpError';
import { AcpPlainLauncher } from '../../src-main/node/acp/acpPlainLauncher';
import { isAlive } from '../../src-main/node/base/processTable';

const FAKE = join(import.meta.dirname, 'fakeAcpAgent.ts');
// Absolute: the agent runs in its workspace, where `--import tsx` would not resolve.
const TSX = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

function fakeEntry() {
  return { id: 'fake', name: 'Fake', command: process.execPath, args: ['--import', TSX, FAKE], env: {}, source: 'user' as const };
}

function recorder() {
  const updates: SessionNotification[] = [];
  const notices: string[] = [];
  const refuse = () => Promise.reject(new Error('not in this test'));
  const handlers: AcpClientHandlers = {
    onSessionUpdate: (n) => updates.push(n),
    onNotice: (t) => notices.push(t),
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
    readTextFile: refuse,
    writeTextFile: refuse,
    createTerminal: refuse,
    terminalOutput: refuse,
    waitForTerminalExit: refuse,
    killTerminal: refuse,
    releaseTerminal: refuse,
  };
  return { updates, notices, handlers };
}

async function start(scenario: string, options = {}) {
  const process_ = await new AcpPlainLauncher().launch({ agent: fakeEntry(), sessionId: 's', workspace: import.meta.dirname, env: { ...(process.env as Record<string, string>), FAKE_ACP_SCENARIO: scenario } });
  const r = recorder();
  return { process: process_, ...r, open: () => AcpConnection.open(process_, 'Fake', r.handlers, options) };
}

const isCode = (code: string) => (e: unknown) => e instanceof AcpError && e.code === code;

test('a turn streams every update kind, unknown kinds and methods included, and never crashes', async () => {
  const s = await start('normal');
  const c = await s.open();
  const session = await c.newSession(import.meta.dirname);
  assert.equal(session.sessionId, 'fake-session-1');
  const response = await c.prompt(session.sessionId, [{ type: 'text', text: 'hello' }]);
  assert.equal(response.stopReason, 'end_turn');
  const kinds = s.updates.map((u) => u.update.sessionUpdate as string);
  assert.deepEqual(kinds, ['agent_thought_chunk', 'agent_message_chunk', 'mystery_update', 'plan', 'usage_update', 'agent_message_chunk']);
  assert.match(JSON.stringify(s.updates.at(-1)), /unknown method answered -32601/);
  assert.ok(s.notices.some((n) => /fake\/unknown_notification/.test(n)), s.notices.join('\n'));
  await c.setMode(session.sessionId, 'plan');
  assert.equal(s.updates.at(-1)!.update.sessionUpdate, 'current_mode_update');
  await c.close();
  assert.equal(isAlive(s.process.pid), false);
});

test('garbage lines are reported and skipped', async () => {
  const s = await start('garbage');
  const c = await s.open();
  const session = await c.newSession(import.meta.dirname);
  await c.prompt(session.sessionId, [{ type: 'text', text: 'x' }]);
  assert.ok(s.notices.filter((n) => /not an ACP message/.test(n)).length >= 3, s.notices.join('\n'));
  await c.close();
});

test('a 100 MB line ends the conversation with ACP_MESSAGE_TOO_LARGE and the agent is reaped', async () => {
  const s = await start('huge-line');
  const c = await s.open();
  const session = await c.newSession(import.meta.dirname);
  await assert.rejects(c.prompt(session.sessionId, [{ type: 'text', text: 'x' }]), isCode('ACP_MESSAGE_TOO_LARGE'));
  await s.process.exited;
  assert.equal(isAlive(s.process.pid), false);
});

test('an agent that never answers initialize is ACP_AGENT_HUNG and is stopped', async () => {
  const s = await start('hang-init', { setupTimeoutMs: 1500 });
  await assert.rejects(s.open(), isCode('ACP_AGENT_HUNG'));
  await s.process.exited;
});

test('an agent that exits mid-turn is ACP_AGENT_CRASHED with its exit code', async () => {
  const s = await start('exit-mid-turn');
  const c = await s.open();
  const session = await c.newSession(import.meta.dirname);
  await assert.rejects(c.prompt(session.sessionId, [{ type: 'text', text: 'x' }]), (e: unknown) => isCode('ACP_AGENT_CRASHED')(e) && /exited with code 3/.test((e as Error).message));
  assert.equal(s.updates.length, 1);
  await assert.rejects(c.prompt(session.sessionId, [{ type: 'text', text: 'again' }]), isCode('ACP_AGENT_CRASHED'));
});

test('an older protocol version is refused, saying which side to update', async () => {
  const s = await start('old-version');
  await assert.rejects(s.open(), (e: unknown) => isCode('ACP_PROTOCOL_VERSION')(e) && /older than this host's 1; update the agent/.test((e as Error).message));
  await s.process.exited;
});

test('a missing program is ACP_AGENT_MISSING', async () => {
  await assert.rejects(
    new AcpPlainLauncher().launch({ agent: { ...fakeEntry(), command: '/nonexistent/agent' }, sessionId: 's', workspace: import.meta.dirname, env: {} }),
    isCode('ACP_AGENT_MISSING'),
  );
});
