// Agents with sandbox = "native": a program that speaks event protocol v0.1 as JSON lines, started only after the
// user allows it on a consent card, inside the native sandbox (bwrap), through the real host.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent, ConsentAnswer, ConsentPrompt } from '../../src-preload/contract';
import { type connectClient, hostWithWorkspace } from '../server/connect';
import { manifestText, writeAgent } from './agentFolders';

type Client = Awaited<ReturnType<typeof connectClient>>;

/** A native agent in shell: echoes the prompt, writes a file, asks for `memory`, reports the answer, then fails or not. */
const SCRIPT = `#!/bin/sh
read -r input
emit() { printf '{"schema_version":"0.1","type":"output","agent_id":"native-echo","chunk_id":"main","content_type":"text/markdown","data":"%s"}\\n' "$1"; }
case "$input" in *'"prompt":"fail"'*) mode=fail ;; *) mode=ok ;; esac
emit "started in $(pwd)"
echo written > made-by-agent.txt
echo "a line for the log" >&2
printf '{"schema_version":"0.1","type":"consent_request","capability":"memory","reason":"to remember the last prompt","duration_s":60}\\n'
read -r answer
case "$answer" in *consent_grant*) emit "memory: granted" ;; *consent_revoke*) emit "memory: refused" ;; *) emit "memory: ?" ;; esac
[ "$mode" = fail ] && exit 7
exit 0
`;

function installNativeAgent(home: string): string {
  const folder = writeAgent(
    join(home, 'agents'),
    'native-echo',
    manifestText({ name: '"native-echo"', entry: '"agent.sh"', sandbox: '"native"', capabilities: '["files.write", "memory"]' }),
    { path: 'agent.sh', bytes: Buffer.from(SCRIPT) },
  );
  chmodSync(join(folder, 'agent.sh'), 0o755);
  return folder;
}

function answerPrompts(client: Client, sessionId: string, answers: (prompt: ConsentPrompt) => ConsentAnswer, asked: ConsentPrompt[]) {
  return client.subscribe('consent.prompts', { sessionId }, {
    onItem: (event) => {
      if (event.kind !== 'pending') return;
      asked.push(event.prompt);
      void client.call('consent.answer', { promptId: event.prompt.id, answer: answers(event.prompt) });
    },
  });
}

async function run(client: Client, sessionId: string, prompt: string): Promise<AgentRunEvent[]> {
  const started = await client.call('agent.start', { sessionId, agent: 'native-echo', prompt });
  const events: AgentRunEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('agent.events', { runId: started.id }, { onItem: (event) => events.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  return events;
}

const outputs = (events: AgentRunEvent[]) => events.flatMap((e) => (e.kind === 'output' && e.cardKind !== 'log' ? [e.data] : []));
const ended = (events: AgentRunEvent[]) => {
  const last = events.at(-1);
  assert.ok(last?.kind === 'ended', JSON.stringify(last));
  return last.run;
};

test('a native agent runs only after the user allows it, in the sandbox, and its writes land when it succeeds', { timeout: 60_000 }, async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  installNativeAgent(host.home);
  const listed = await client.call('agent.list', {});
  assert.equal(listed.agents.find((a) => a.name === 'native-echo')?.sandbox, 'native', JSON.stringify(listed.broken));
  const session = await client.call('session.create', { workspace: workspace.path });
  const asked: ConsentPrompt[] = [];
  answerPrompts(client, session.id, (p) => (p.capability === 'process.exec' ? { kind: 'allow_once' } : { kind: 'deny' }), asked);

  const events = await run(client, session.id, 'hello');
  assert.equal(ended(events).outcome, 'completed', JSON.stringify(ended(events).error));
  // First the card that asks to run it natively, naming the program; then the agent's own request, refused.
  assert.deepEqual(asked.map((p) => p.capability), ['process.exec', 'memory']);
  assert.match(asked[0].action ?? '', /^run natively: .*native-echo\/agent\.sh$/);
  assert.match(asked[0].reason, /native program .* runs in the OS sandbox with files\.write, memory/);
  assert.deepEqual(outputs(events), [`started in ${workspace.path}`, 'memory: refused']);
  assert.ok(events.some((e) => e.kind === 'output' && e.cardKind === 'log' && e.data === 'a line for the log'), 'stderr is the log card');
  assert.equal(readFileSync(join(workspace.path, 'made-by-agent.txt'), 'utf8'), 'written\n');

  const launch = (await client.call('ledger.list', { limit: 100 })).find((e) => e.type === 'agent.native_launch');
  const enforced = (launch?.payload as { enforced?: string[] } | undefined)?.enforced ?? [];
  for (const item of ['bwrap', 'seccomp', 'netns', 'staged-writes']) assert.ok(enforced.includes(item), `${item} not enforced: ${enforced.join(', ')}`);
});

test('a native agent the user does not allow never starts; one that fails leaves no writes behind', { timeout: 60_000 }, async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  installNativeAgent(host.home);
  const session = await client.call('session.create', { workspace: workspace.path });
  let allowNative = false;
  answerPrompts(client, session.id, (p) => (p.capability === 'process.exec' && allowNative ? { kind: 'allow_once' } : { kind: 'deny' }), []);

  const refused = await run(client, session.id, 'hello');
  assert.equal(ended(refused).outcome, 'failed');
  assert.equal(ended(refused).error?.code, 'capability_denied');
  assert.deepEqual(outputs(refused), []);
  assert.equal(existsSync(join(workspace.path, 'made-by-agent.txt')), false);

  allowNative = true;
  const failed = await run(client, session.id, 'fail');
  assert.equal(ended(failed).outcome, 'failed');
  assert.match(ended(failed).error?.message ?? '', /ended with code 7/);
  assert.deepEqual(outputs(failed), [`started in ${workspace.path}`, 'memory: refused']);
  assert.equal(existsSync(join(workspace.path, 'made-by-agent.txt')), false, 'a failed run\'s writes are dropped');
});
