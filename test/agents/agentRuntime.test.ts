// The agent runtime through the real host: bundled agents (built by scripts/build-agents.mjs) run in the WASM
// sandbox's child processes, ask for consent through the prompt stream, and stream their output as run events.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent, ConsentAnswer, ConsentPrompt } from '../../src-preload/contract';
import { tempDir } from '../helpers';
import { connectClient, hostWithWorkspace, startTestHost } from '../server/connect';

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Answers every consent prompt of the session with `answer`, recording what was asked. */
function answerPrompts(client: Client, sessionId: string, answer: ConsentAnswer, asked: ConsentPrompt[]) {
  return client.subscribe('consent.prompts', { sessionId }, {
    onItem: (event) => {
      if (event.kind !== 'pending') return;
      asked.push(event.prompt);
      void client.call('consent.answer', { promptId: event.prompt.id, answer });
    },
  });
}

/** Runs an agent to its end and returns its events. */
async function run(client: Client, sessionId: string, agent: string, prompt: string): Promise<AgentRunEvent[]> {
  const started = await client.call('agent.start', { sessionId, agent, prompt });
  const events: AgentRunEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('agent.events', { runId: started.id }, { onItem: (event) => events.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  return events;
}

const textOf = (events: AgentRunEvent[], kind?: string) =>
  events
    .filter((e): e is Extract<AgentRunEvent, { kind: 'output' }> => e.kind === 'output' && (!kind || e.cardKind === kind))
    .map((e) => e.data)
    .join('');

test('bundled agents: listed with their manifests; workspace-summary asks for files.read, gets it, and summarises', { timeout: 60_000 }, async (t) => {
  assert.ok(existsSync(join(__dirname, '../../assets/agents/workspace-summary/agent.wasm')), 'the bundled agents are not built: run `npm run build`');
  const workspace = tempDir('ws');
  writeFileSync(join(workspace.path, 'README.md'), '# Demo project\nIt does things.\n');
  mkdirSync(join(workspace.path, 'src'));
  writeFileSync(join(workspace.path, 'src', 'a.ts'), 'export const a = 1;\n');
  const host = await startTestHost();
  const client = await connectClient(host.server);
  t.after(async () => {
    client.dispose();
    await host.cleanup();
    workspace.cleanup();
  });
  const listed = await client.call('agent.list', {});
  assert.deepEqual(listed.agents.map((a) => a.name).sort(), ['executor', 'http-check', 'scaffolder', 'verifier', 'workspace-summary']);
  const summary = listed.agents.find((a) => a.name === 'workspace-summary')!;
  assert.deepEqual(summary.capabilities, ['files.read']);
  assert.equal(summary.sandbox, 'wasm');

  const session = await client.call('session.create', { workspace: workspace.path });
  const asked: ConsentPrompt[] = [];
  answerPrompts(client, session.id, { kind: 'allow_for', minutes: 10 }, asked);
  const events = await run(client, session.id, 'workspace-summary', 'what is here?');
  const ended = events.at(-1);
  assert.ok(ended?.kind === 'ended' && ended.run.outcome === 'completed', JSON.stringify(ended));
  assert.deepEqual(asked.map((p) => [p.agentId, p.capability]), [['workspace-summary', 'files.read']]);
  const markdown = textOf(events, 'markdown');
  assert.match(markdown, /\*\*2\*\* files in \*\*1\*\* folders/);
  assert.match(markdown, /> # Demo project/);
  assert.deepEqual(
    events.filter((e) => e.kind === 'state').map((e) => (e.kind === 'state' ? e.state : '')),
    ['Initialized', 'Active', 'Terminated'],
  );
  const types = (await client.call('ledger.list', { limit: 50 })).map((e) => e.type);
  for (const type of ['agent.register', 'agent.start', 'consent.request', 'consent.grant', 'agent.end']) assert.ok(types.includes(type), `no ${type} in the ledger: ${types.join(', ')}`);
});

test('scaffolder: denied, it writes nothing and shows the files as code to copy; allowed, it writes them with diff cards', { timeout: 60_000 }, async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const denied: ConsentPrompt[] = [];
  const denying = answerPrompts(client, session.id, { kind: 'deny' }, denied);
  const refused = await run(client, session.id, 'scaffolder', 'scaffold demo-lib');
  denying.dispose();
  const asked = denied.find((p) => p.capability === 'files.write');
  assert.ok(asked, 'the scaffolder did not ask to write');
  // The card shows what would be written, not only where.
  assert.equal(asked.write?.path, asked.target);
  assert.equal(asked.write?.before, null);
  assert.match(asked.write?.after ?? '', /export function hello|"name": "demo-lib"/);
  assert.equal(existsSync(join(workspace.path, 'demo-lib')), false, 'files were written without consent');
  assert.match(textOf(refused, 'markdown'), /Not allowed to write files/);
  assert.match(textOf(refused, 'code'), /export function hello/);

  const allowed: ConsentPrompt[] = [];
  answerPrompts(client, session.id, { kind: 'allow_for', minutes: 10 }, allowed);
  const done = await run(client, session.id, 'scaffolder', 'scaffold demo-lib');
  assert.ok(done.at(-1)?.kind === 'ended');
  const consentLog = (await client.call('ledger.list', { limit: 30 })).filter((e) => e.type.startsWith('consent.')).map((e) => `${e.type} ${JSON.stringify(e.payload)}`);
  assert.match(textOf(done, 'diff'), /\+\+\+ b\/demo-lib\/src\/index\.ts/, `asked: ${allowed.length}\n${consentLog.join('\n')}`);
  assert.match(readFileSync(join(workspace.path, 'demo-lib', 'src', 'index.ts'), 'utf8'), /export function hello/);
  assert.match(readFileSync(join(workspace.path, 'demo-lib', 'package.json'), 'utf8'), /"name": "demo-lib"/);
});
