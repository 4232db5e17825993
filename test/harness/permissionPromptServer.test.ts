// The permission prompt MCP server on its own: an MCP client from the SDK spawns the relay exactly as Claude Code
// would (from the --mcp-config the server wrote) and calls the tool; the consent engine (real SQLite, real ledger,
// fake clock) decides through the UI's consent channel, answered like a consent card.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ConsentPrompt } from '../../src-preload/contract';
import { UiConsentChannel } from '../../src-main/node/consent/uiConsentChannel';
import { PERMISSION_PROMPT_TOOL, PermissionPromptServer } from '../../src-main/node/harness/permissionPrompt';
import { openConsent, type ConsentFixture } from '../consent/consentFixture';
import { tempDir, waitFor } from '../helpers';

const SESSION = 'ses_permissionPrompt1';
const AGENT = 'claude-code';
const PROMPT_TIMEOUT_MS = 120_000;

interface Rig {
  consent: ConsentFixture;
  channel: UiConsentChannel;
  server: PermissionPromptServer;
  workspace: string;
  /** Consent cards as the renderer sees them: pending prompts of the session. */
  cards(): ConsentPrompt[];
  /** A client connected the way Claude Code connects. */
  connect(): Promise<Client>;
}

async function rig(t: TestContext): Promise<Rig> {
  const consent = openConsent(t, { promptTimeoutMs: PROMPT_TIMEOUT_MS });
  const channel = new UiConsentChannel();
  consent.engine.attachChannel(channel);
  const watching = channel.watch(SESSION, () => {});
  const dir = tempDir('permission-ws');
  const workspace = join(dir.path, 'ws');
  mkdirSync(workspace);
  const server = await PermissionPromptServer.open(consent.engine, { agentId: AGENT, sessionId: SESSION, workspace });
  const clients: Client[] = [];
  t.after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server.close();
    watching.dispose();
    dir.cleanup();
  });
  return {
    consent,
    channel,
    server,
    workspace,
    cards: () => channel.pending(SESSION),
    async connect() {
      const config = JSON.parse(readFileSync(server.mcpConfig, 'utf8'));
      const relay = config.mcpServers.omni;
      const client = new Client({ name: 'permission-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: relay.command, args: relay.args, env: { ...relay.env, PATH: process.env.PATH ?? '' }, stderr: 'pipe' }));
      clients.push(client);
      return client;
    },
  };
}

type Answer = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

async function callTool(client: Client, tool_name: string, input: Record<string, unknown>): Promise<Answer> {
  const result = (await client.callTool({ name: 'permission_prompt', arguments: { tool_name, input, tool_use_id: 'toolu_01' } })) as { content: { type: string; text: string }[] };
  assert.equal(result.content.length, 1, 'Claude Code needs exactly one text block');
  assert.equal(result.content[0].type, 'text');
  return JSON.parse(result.content[0].text) as Answer;
}

test('the config holds no secret, the socket is private, and the tool is listed under the name Claude Code is given', async (t) => {
  const r = await rig(t);
  assert.equal(PERMISSION_PROMPT_TOOL, 'mcp__omni__permission_prompt');
  assert.deepEqual(r.server.invocation, { tool: PERMISSION_PROMPT_TOOL, mcpConfig: r.server.mcpConfig });
  assert.equal(statSync(r.server.socketPath).mode & 0o777, 0o600);
  assert.equal(statSync(join(r.server.socketPath, '..')).mode & 0o777, 0o700);
  assert.equal(statSync(r.server.mcpConfig).mode & 0o777, 0o600);
  const config = JSON.parse(readFileSync(r.server.mcpConfig, 'utf8'));
  assert.deepEqual(Object.keys(config.mcpServers), ['omni']);
  assert.equal(config.mcpServers.omni.args.at(-1), r.server.socketPath);
  const client = await r.connect();
  const tools = await client.listTools();
  assert.deepEqual(
    tools.tools.map((tool) => tool.name),
    ['permission_prompt'],
  );
  assert.deepEqual(Object.keys(tools.tools[0].inputSchema.properties ?? {}).sort(), ['input', 'tool_name', 'tool_use_id']);
});

test('allow: the card shows the mapped capability, the answer allows the call with its input, the grant and the use are in the ledger', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const input = { file_path: join(r.workspace, 'notes/todo.md'), content: 'hello' };
  const answer = callTool(client, 'Write', input);
  const [card] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a consent card');
  assert.equal(card.capability, 'files.write');
  assert.equal(card.target, 'notes/todo.md');
  assert.equal(card.agentId, AGENT);
  assert.match(card.reason, /Claude Code wants to write notes\/todo\.md \(Write\)/);
  r.channel.answer(card.id, { kind: 'allow_once' });
  assert.deepEqual(await answer, { behavior: 'allow', updatedInput: input });
  const [request] = r.consent.entries('consent.request');
  assert.equal(request.payload.capability, 'files.write');
  const [grant] = r.consent.entries('consent.grant');
  assert.equal(grant.actor, 'user');
  assert.equal(grant.payload.once, true);
  assert.equal(r.consent.entries('consent.deny').length, 0);
  // The "Allow once" was spent by this call: the same call asks again.
  const again = callTool(client, 'Write', input);
  const [second] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a second card');
  r.channel.answer(second.id, { kind: 'deny' });
  assert.equal((await again).behavior, 'deny');
});

test('an "Allow once" the session spent is listed as in flight while it runs, and leaves the grants list when it ends', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const answer = callTool(client, 'Write', { file_path: join(r.workspace, 'a.txt'), content: 'a' });
  const [card] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a consent card');
  r.channel.answer(card.id, { kind: 'allow_once' });
  assert.equal((await answer).behavior, 'allow');
  assert.deepEqual(r.consent.engine.list(SESSION).map((g) => [g.capability, g.status]), [['files.write', 'used']]);
  // A timed grant of the same session is not the run's to end.
  const timed = callTool(client, 'Write', { file_path: join(r.workspace, 'b.txt'), content: 'b' });
  const [second] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a second card');
  r.channel.answer(second.id, { kind: 'allow_for', minutes: 5 });
  assert.equal((await timed).behavior, 'allow');
  await r.server.close();
  assert.deepEqual(r.consent.engine.list(SESSION).map((g) => [g.capability, g.once, g.status]), [['files.write', false, 'live']]);
});

test('deny: the call is refused with a message for the model, and the ledger has the user\'s denial', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const answer = callTool(client, 'Bash', { command: 'rm -rf build', description: 'clean the build' });
  const [card] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a consent card');
  assert.equal(card.capability, 'process.exec');
  assert.equal(card.action, 'rm -rf build', 'a command is asked for exactly');
  assert.equal(card.sensitive, true);
  r.channel.answer(card.id, { kind: 'deny' });
  const result = await answer;
  assert.equal(result.behavior, 'deny');
  assert.match((result as { message: string }).message, /the user denied it/);
  const [deny] = r.consent.entries('consent.deny');
  assert.equal(deny.actor, 'user');
  assert.equal(deny.payload.capability, 'process.exec');
  assert.equal(deny.payload.action, 'rm -rf build');
  assert.equal(r.consent.entries('consent.grant').length, 0);
});

test('a live grant covers the next call without a card; once it has expired the user is asked again', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const fetch = { url: 'https://docs.example.org/guide', prompt: 'summarise' };
  const first = callTool(client, 'WebFetch', fetch);
  const [card] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a consent card');
  assert.equal(card.capability, 'network');
  assert.equal(card.scope, 'docs.example.org');
  r.channel.answer(card.id, { kind: 'allow_for', minutes: 1 });
  assert.equal((await first).behavior, 'allow');

  // Same host, another page: covered by the grant, nobody is asked.
  const covered = await callTool(client, 'WebFetch', { ...fetch, url: 'https://docs.example.org/api' });
  assert.equal(covered.behavior, 'allow');
  assert.equal(r.cards().length, 0);
  assert.equal(r.consent.entries('consent.grant').length, 1);

  r.consent.clock.advance(61_000);
  assert.equal(r.consent.entries('consent.expire').length, 1);
  const afterExpiry = callTool(client, 'WebFetch', fetch);
  const [again] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a card after expiry');
  r.channel.answer(again.id, { kind: 'deny' });
  assert.equal((await afterExpiry).behavior, 'deny');
});

test('no answer within the prompt timeout is a denial, and the card goes away', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const answer = callTool(client, 'Edit', { file_path: join(r.workspace, 'a.txt'), old_string: 'a', new_string: 'b' });
  await waitFor(() => r.cards().length === 1, 'a consent card');
  r.consent.clock.advance(PROMPT_TIMEOUT_MS + 1);
  const result = await answer;
  assert.equal(result.behavior, 'deny');
  assert.match((result as { message: string }).message, /not answered.*no answer within 120 s/);
  assert.equal(r.cards().length, 0);
  assert.match(String(r.consent.entries('consent.deny')[0].payload.reason), /fail closed/);
});

test('the CLI gone while its card is showing: the card is withdrawn and the request recorded as denied', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  void callTool(client, 'Write', { file_path: join(r.workspace, 'x'), content: '' }).catch(() => {});
  await waitFor(() => r.cards().length === 1, 'a consent card');
  await client.close();
  await waitFor(() => r.cards().length === 0, 'the card withdrawn');
  const [deny] = await waitFor(() => (r.consent.entries('consent.deny').length ? r.consent.entries('consent.deny') : undefined), 'the denial');
  assert.match(String(deny.payload.reason), /the agent that asked has stopped/);
});

test('the host gone while a card is showing: the call fails instead of hanging, so the CLI cannot go ahead', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const answer = callTool(client, 'Write', { file_path: join(r.workspace, 'x'), content: '' });
  await waitFor(() => r.cards().length === 1, 'a consent card');
  await r.server.close();
  await assert.rejects(answer);
  await waitFor(() => r.cards().length === 0, 'the card withdrawn');
});

test('what has no capability, or lies outside the workspace, is refused without a card and recorded', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const outside = await callTool(client, 'Write', { file_path: '/etc/passwd', content: '' });
  assert.equal(outside.behavior, 'deny');
  assert.match((outside as { message: string }).message, /outside the workspace/);
  symlinkSync('/etc', join(r.workspace, 'etc-link'));
  const throughLink = await callTool(client, 'Edit', { file_path: join(r.workspace, 'etc-link/hosts'), old_string: 'a', new_string: 'b' });
  assert.match((throughLink as { message: string }).message, /outside the workspace/);
  const unknown = await callTool(client, 'mcp__other__delete_everything', {});
  assert.match((unknown as { message: string }).message, /no capability for Claude Code's tool "mcp__other__delete_everything"/);
  assert.equal(r.cards().length, 0);
  const denials = r.consent.entries('consent.deny');
  assert.deepEqual(
    denials.map((d) => d.payload.capability),
    ['files.write', 'files.write', 'claude-code:mcp__other__delete_everything'],
  );
});

test('a session it could not serve is refused with what to fix, before anything is created', async (t) => {
  const consent = openConsent(t);
  const dir = tempDir('permission-bad');
  t.after(dir.cleanup);
  await assert.rejects(PermissionPromptServer.open(consent.engine, { agentId: '', sessionId: SESSION, workspace: dir.path }), /agentId must be a non-empty id/);
  await assert.rejects(PermissionPromptServer.open(consent.engine, { agentId: AGENT, sessionId: SESSION, workspace: 'relative/ws' }), /workspace must be the CLI's cwd, an absolute path to an existing folder \(got "relative\/ws"\)/);
  await assert.rejects(PermissionPromptServer.open(consent.engine, { agentId: AGENT, sessionId: SESSION, workspace: join(dir.path, 'missing') }), RangeError);
});

test('a long command with a long description still reaches the card, in full as its action', async (t) => {
  const r = await rig(t);
  const client = await r.connect();
  const command = `printf '%s' ${'a'.repeat(1500)}`;
  const answer = callTool(client, 'Bash', { command, description: 'd'.repeat(1500) });
  const [card] = await waitFor(() => (r.cards().length ? r.cards() : undefined), 'a consent card');
  assert.equal(card.action, command);
  assert.ok(card.reason.length <= 400);
  r.channel.answer(card.id, { kind: 'allow_once' });
  assert.equal((await answer).behavior, 'allow');
});
