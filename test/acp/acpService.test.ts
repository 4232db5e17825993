// ACP conversations through the real host (SQLite, ledger, consent engine, event log, exec) with the scripted fake
// agent (test/acp/fakeAcpAgent.ts): streamed updates stored and replayed, permission cards mapped onto the agent's
// options, files written only inside the workspace and only when allowed, terminals through the exec service,
// cancel answering pending requests `cancelled`, and history plus Resume (session/load) across a host restart.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, type TestContext } from 'node:test';
import type { AcpConversation, AcpEntry, ConsentPromptEvent } from '../../src-preload/contract';
import { AcpPlainLauncher } from '../../src-main/node/acp/acpPlainLauncher';
import { databasePath } from '../../src-main/node/home';
import { createHostServices } from '../../src-main/node/hostServices';
import { isAlive } from '../../src-main/node/base/processTable';
import { tempDir, waitFor } from '../helpers';
import { type AcpTestHost, CONNECTION, messageChunks, openAcpTestHost, sinkOf, storedEntries } from './acpTestHost';

const FAKE = join(import.meta.dirname, 'fakeAcpAgent.ts');
// Absolute: the agent runs in its workspace, where `--import tsx` would not resolve.
const TSX = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

function writeAgents(home: string, workspace: string): void {
  const agent = (id: string, scenario: string, extra: Record<string, string> = {}) => ({ id, command: process.execPath, args: ['--import', TSX, FAKE], env: { FAKE_ACP_SCENARIO: scenario, ...extra } });
  writeFileSync(
    join(home, 'acp-agents.json'),
    JSON.stringify({
      schema_version: 1,
      agents: [
        agent('fake', 'normal'),
        agent('fake-perm', 'permission', { FAKE_ACP_PATH: join(workspace, 'hello.txt') }),
        agent('fake-outside', 'permission', { FAKE_ACP_PATH: '/tmp/outside-the-workspace.txt' }),
        agent('fake-term', 'terminal'),
        agent('fake-hung', 'ignore-cancel'),
        agent('fake-crash', 'exit-mid-turn'),
        agent('fake-read-log', 'read-log', { FAKE_ACP_DB: databasePath(home) }),
      ],
    }),
  );
}

// The plain launcher: the fake agent (node + tsx from this checkout) lives outside what the host's default, sandboxed
// launcher shows an agent; realClaudeAgentAcp/realCodexAcp go through the default.
const openHost = (home: string, workspace: string, sessionId?: string) => openAcpTestHost({ home, keychain: 'off', acpLauncher: new AcpPlainLauncher() }, workspace, sessionId);

/** A host on a fresh home whose acp-agents.json lists the fake agents, with a session on a fresh workspace; removed after the test. */
async function fakeAgentHost(t: TestContext): Promise<{ host: AcpTestHost; workspace: string }> {
  const home = tempDir('acp-home');
  const workspace = tempDir('acp-ws');
  writeAgents(home.path, workspace.path);
  const host = await openHost(home.path, workspace.path);
  t.after(async () => {
    await host.dispose();
    home.cleanup();
    workspace.cleanup();
  });
  return { host, workspace: workspace.path };
}

const entries = storedEntries;

const text = messageChunks;

test('a conversation streams into the event log; after a restart its history shows and Resume continues it', { timeout: 120_000 }, async (t) => {
  const home = tempDir('acp-home');
  const workspace = tempDir('acp-ws');
  t.after(() => {
    home.cleanup();
    workspace.cleanup();
  });
  writeAgents(home.path, workspace.path);
  let host = await openHost(home.path, workspace.path);
  const { sessionId } = host;
  const agents = await host.services.handlers['acp.agents']({}, CONNECTION);
  assert.ok(agents.agents.some((a) => a.id === 'fake' && a.source === 'user'));
  assert.ok(agents.agents.some((a) => a.id === 'claude' && a.source === 'builtin'));

  const live: AcpEntry[] = [];
  let conversation: AcpConversation = await host.services.handlers['acp.start']({ sessionId, agent: 'fake' }, CONNECTION);
  assert.equal(conversation.status, 'ready');
  assert.equal(conversation.continuation.key, 'fake-session-1');
  assert.equal(conversation.continuation.provider, 'acp:fake');
  assert.equal(conversation.resumable, true);
  assert.deepEqual(conversation.modes?.available.map((m) => m.id), ['default', 'plan']);
  const sub = host.services.handlers['acp.updates']({ conversationId: conversation.id }, sinkOf<AcpEntry>((e) => live.push(e)), CONNECTION);
  const turn = await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'hello' }, CONNECTION);
  assert.equal(turn.stopReason, 'end_turn');
  assert.deepEqual(text(live), ['you said: hello', 'unknown method answered -32601']);
  assert.ok(live.some((e) => e.type === 'update' && (e.data as { sessionUpdate: string }).sessionUpdate === 'mystery_update'), 'an unknown update kind is kept');
  assert.ok(live.some((e) => e.type === 'update' && (e.data as { sessionUpdate: string }).sessionUpdate === 'usage_update'));
  assert.ok(live.some((e) => e.type === 'notice'));
  sub?.dispose();
  const withUsage = entries(host, conversation.id).filter((e) => e.type === 'status').at(-1)!.data as AcpConversation;
  assert.deepEqual(withUsage.usage, { used: 10, size: 1000, cost: { amount: 0.01, currency: 'USD' } });
  conversation = await host.services.handlers['acp.setMode']({ conversationId: conversation.id, modeId: 'plan' }, CONNECTION);
  assert.equal(conversation.modes?.currentModeId, 'plan');
  const before = entries(host, conversation.id);
  await host.dispose();

  // A new host: the history comes from the event log, not from the agent.
  host = await openHost(home.path, workspace.path, sessionId);
  t.after(() => host.dispose());
  const [stored] = await new Promise<AcpConversation[]>((resolve) => {
    const s = host.services.handlers['acp.watch']({ sessionId }, sinkOf((frame: { kind: string; items?: AcpConversation[] }) => frame.kind === 'snapshot' && resolve(frame.items!)), CONNECTION);
    setImmediate(() => s?.dispose());
  });
  assert.equal(stored.status, 'stopped');
  assert.equal(stored.statusReason, 'the host stopped');
  const after = entries(host, conversation.id);
  assert.deepEqual(text(after), text(before));
  assert.ok(after.some((e) => e.type === 'prompt' && (e.data as { text: string }).text === 'hello'));
  await assert.rejects(async () => { await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'again' }, CONNECTION); }, /resume it first/);

  const resumed = await host.services.handlers['acp.resume']({ conversationId: conversation.id }, CONNECTION);
  assert.equal(resumed.status, 'ready');
  assert.equal(resumed.continuation.key, 'fake-session-1');
  // session/load's replay of the history is not stored twice.
  const afterLoad = entries(host, conversation.id);
  assert.ok(!afterLoad.some((e) => e.type === 'update' && (e.data as { sessionUpdate: string }).sessionUpdate === 'user_message_chunk'));
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'second' }, CONNECTION);
  assert.deepEqual(text(entries(host, conversation.id)).slice(-2), ['you said: second', 'unknown method answered -32601']);

  // Closing the session stops its conversations.
  await host.services.handlers['session.close']({ id: sessionId }, CONNECTION);
  await waitFor(() => host.services.handlers['acp.resume'] !== undefined && entries(host, conversation.id).some((e) => e.type === 'status' && (e.data as AcpConversation).statusReason === 'its session was closed'), 'the conversation stopped with its session');
});

test('a permission request becomes a consent card; allow writes through fs/write_text_file, deny leaves the file alone, outside the workspace is refused without a card', { timeout: 120_000 }, async (t) => {
  const { host, workspace } = await fakeAgentHost(t);
  const target = join(workspace, 'hello.txt');
  const ledger = async (type: string) => (await host.services.handlers['ledger.list']({ sessionId: host.sessionId, limit: 1000 }, CONNECTION)).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

  // Deny.
  host.answer = () => ({ kind: 'deny' });
  let conversation = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-perm' }, CONNECTION);
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  assert.equal(existsSync(target), false);
  assert.deepEqual(text(entries(host, conversation.id)), ['permission: no']);
  assert.equal(host.cards.length, 1);
  assert.equal(host.cards[0].capability, 'files.write');
  assert.equal(host.cards[0].target, 'hello.txt');
  assert.match(host.cards[0].reason, /write hello\.txt/);
  assert.match(host.cards[0].reason, /\+\+\+ after\nhello/, 'the card shows the diff');
  assert.deepEqual((await ledger('acp.permission')).map((p) => p.answer), ['reject']);

  // Allow once: the agent's allow_once option, and its write goes through without a second card.
  host.answer = () => ({ kind: 'allow_once' });
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  assert.equal(readFileSync(target, 'utf8'), 'hello');
  assert.deepEqual(text(entries(host, conversation.id)).slice(-2), ['permission: once', 'written']);
  assert.equal(host.cards.length, 2);
  const writes = await ledger('acp.fs.write');
  assert.equal(writes.length, 1);
  assert.equal(writes[0].path, 'hello.txt');
  assert.ok(entries(host, conversation.id).some((e) => e.type === 'update' && (e.data as { sessionUpdate: string; content?: { type: string }[] }).sessionUpdate === 'tool_call_update' && (e.data as { content: { type: string }[] }).content[0].type === 'diff'));
  // The turn is over, so is its "Allow once": nothing is left in the grants panel for it.
  assert.deepEqual((await host.services.handlers['consent.grants']({ sessionId: host.sessionId }, CONNECTION)).filter((g) => g.agentId === 'acp:fake-perm'), []);

  // Allow for 10 minutes: a grant, so the next request is answered allow_always without a card.
  host.answer = () => ({ kind: 'allow_for', minutes: 10 });
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  assert.equal(text(entries(host, conversation.id)).at(-2), 'permission: always');
  const cards = host.cards.length;
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  assert.equal(host.cards.length, cards, 'a live grant answers without a card');
  assert.equal(text(entries(host, conversation.id)).at(-2), 'permission: always');
  const grants = await host.services.handlers['consent.grants']({ sessionId: host.sessionId }, CONNECTION);
  assert.ok(grants.some((g) => g.agentId === 'acp:fake-perm' && g.capability === 'files.write'), 'the grant shows in the grants panel');

  // Outside the workspace: rejected at once, no card.
  conversation = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-outside' }, CONNECTION);
  const before = host.cards.length;
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write outside' }, CONNECTION);
  assert.equal(host.cards.length, before);
  assert.deepEqual(text(entries(host, conversation.id)), ['permission: no']);
  assert.equal(existsSync('/tmp/outside-the-workspace.txt'), false);
});

test('cancel answers a pending permission request `cancelled`', { timeout: 60_000 }, async (t) => {
  const { host } = await fakeAgentHost(t);
  host.answer = () => null; // nobody answers
  const conversation = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-perm' }, CONNECTION);
  const turn = host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  await waitFor(() => host.cards.length === 1, 'the card is shown');
  await host.services.handlers['acp.cancel']({ conversationId: conversation.id }, CONNECTION);
  assert.equal((await turn).stopReason, 'cancelled');
  assert.deepEqual(text(entries(host, conversation.id)), ['permission: cancelled']);
});

test('the prompt and its `prompting` status are on disk before the agent sees the prompt: a crash then cannot lose a turn the agent acted on', { timeout: 60_000 }, async (t) => {
  const { host } = await fakeAgentHost(t);
  const conversation = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-read-log' }, CONNECTION);
  for (const prompt of ['first question', 'second question']) {
    await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: prompt }, CONNECTION);
    // The agent read the database on its own connection the moment the prompt reached it.
    assert.deepEqual(JSON.parse(text(entries(host, conversation.id)).at(-1)!), { prompt, status: 'prompting' });
  }
});

test('a terminal runs through the exec service (the Runs panel) after consent', { timeout: 60_000 }, async (t) => {
  const { host, workspace } = await fakeAgentHost(t);
  mkdirSync(join(workspace, 'sub'));
  const conversation = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-term' }, CONNECTION);
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'run' }, CONNECTION);
  assert.deepEqual(text(entries(host, conversation.id)), ['exit 0 output "hi\\n"']);
  assert.equal(host.cards[0].capability, 'process.exec');
  const runs = await host.services.handlers['exec.runs']({ sessionId: host.sessionId }, CONNECTION);
  assert.ok(runs.some((r) => r.actor === 'acp:fake-term' && r.argv.join(' ').includes('echo')), JSON.stringify(runs.map((r) => [r.actor, r.argv])));
});

test('a permission request waits for a window to show its card; it is not denied because none is open', { timeout: 60_000 }, async (t) => {
  const home = tempDir('acp-home');
  const workspace = tempDir('acp-ws');
  writeAgents(home.path, workspace.path);
  const services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off', acpLauncher: new AcpPlainLauncher() });
  t.after(async () => {
    await services.dispose();
    home.cleanup();
    workspace.cleanup();
  });
  const session = await services.handlers['session.create']({ workspace: workspace.path }, CONNECTION);
  const conversation = await services.handlers['acp.start']({ sessionId: session.id, agent: 'fake-perm' }, CONNECTION);
  const turn = services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write it' }, CONNECTION);
  // No window watches the session's cards: the request waits.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const ledgered = (await services.handlers['ledger.list']({ sessionId: session.id, limit: 100 }, CONNECTION)).filter((e) => e.type === 'acp.permission');
  assert.equal(ledgered.length, 0, 'not answered yet');
  // A window opens and answers.
  const prompts = services.handlers['consent.prompts'](
    { sessionId: session.id },
    sinkOf<ConsentPromptEvent>((event) => {
      if (event.kind === 'pending') void services.handlers['consent.answer']({ promptId: event.prompt.id, answer: { kind: 'allow_once' } }, CONNECTION);
    }),
    CONNECTION,
  );
  t.after(() => prompts?.dispose());
  assert.equal((await turn).stopReason, 'end_turn');
  assert.equal(readFileSync(join(workspace.path, 'hello.txt'), 'utf8'), 'hello');
});

test('a crash mid-turn fails the conversation with ACP_AGENT_CRASHED; a turn hung past cancel is ACP_AGENT_HUNG and its tree is reaped; models are selectable', { timeout: 90_000 }, async (t) => {
  const { host } = await fakeAgentHost(t);
  const crash = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-crash' }, CONNECTION);
  await assert.rejects(async () => {
    await host.services.handlers['acp.prompt']({ conversationId: crash.id, text: 'go' }, CONNECTION);
  }, /exited with code 3/);
  const failed = entries(host, crash.id).filter((e) => e.type === 'status').at(-1)!.data as AcpConversation;
  assert.equal(failed.status, 'failed');
  assert.equal(failed.errorCode, 'ACP_AGENT_CRASHED');
  assert.deepEqual(text(entries(host, crash.id)), ['about to']);

  const hung = await host.services.handlers['acp.start']({ sessionId: host.sessionId, agent: 'fake-hung' }, CONNECTION);
  assert.equal(hung.models?.current, 'small');
  const model = await host.services.handlers['acp.setModel']({ conversationId: hung.id, model: 'large' }, CONNECTION);
  assert.equal(model.models?.current, 'large');
  const turn = Promise.resolve(host.services.handlers['acp.prompt']({ conversationId: hung.id, text: 'go' }, CONNECTION));
  turn.catch(() => {});
  const grandchild = await waitFor(() => /grandchild (\d+)/.exec(text(entries(host, hung.id)).join(''))?.[1], 'the agent started a grandchild');
  const started = Date.now();
  await host.services.handlers['acp.cancel']({ conversationId: hung.id }, CONNECTION);
  t.diagnostic(`cancel to hung: ${Date.now() - started} ms`);
  await assert.rejects(async () => {
    await turn;
  }, /did not end its turn/);
  const last = entries(host, hung.id).filter((e) => e.type === 'status').at(-1)!.data as AcpConversation;
  assert.equal(last.errorCode, 'ACP_AGENT_HUNG');
  await waitFor(() => !isAlive(Number(grandchild)), 'the grandchild is reaped with the agent');
});
