// The steer backlog (spec shell-exec-actions, "Watcher Flow"): a watcher match of a run is queued for the session
// and delivered with the prompt of the session agent's next turn, exactly once.
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent } from '../../src-preload/contract';
import { manifestText, writeAgent } from '../agents/agentFolders';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

/** A native agent that keeps the input event it was given in the workspace, then ends. */
const SCRIPT = `#!/bin/sh
read -r input
printf '%s\\n' "$input" > "seen-$(date +%s%N).json"
`;

test('a watcher match reaches the next agent turn in the session once, and is then marked delivered', { timeout: 90_000 }, async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const folder = writeAgent(join(host.home, 'agents'), 'listener', manifestText({ name: '"listener"', entry: '"agent.sh"', sandbox: '"native"', capabilities: '[]' }), {
    path: 'agent.sh',
    bytes: Buffer.from(SCRIPT),
  });
  chmodSync(join(folder, 'agent.sh'), 0o755);
  const session = await client.call('session.create', { workspace: workspace.path });
  client.subscribe('consent.prompts', { sessionId: session.id }, {
    onItem: (event) => {
      if (event.kind === 'pending') void client.call('consent.answer', { promptId: event.prompt.id, answer: { kind: 'allow_for', minutes: 10 } });
    },
  });

  await client.call('exec.shell', {
    action: 'spawn',
    session_id: session.id,
    command: 'echo "compiling"; echo "error TS2322: wrong type"; echo done',
    watch: [{ regex: 'error TS\\d+', event: 'build_error' }],
  });
  await waitFor(async () => (await client.call('exec.backlog', { sessionId: session.id })).length === 1, 'the watcher event in the backlog', 20_000);

  async function turn(prompt: string): Promise<string> {
    const started = await client.call('agent.start', { sessionId: session.id, agent: 'listener', prompt });
    const events: AgentRunEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe('agent.events', { runId: started.id }, { onItem: (e) => events.push(e), onEnd: (error) => (error ? reject(error) : resolve()) });
    });
    const ended = events.at(-1);
    assert.ok(ended?.kind === 'ended' && ended.run.outcome === 'completed', JSON.stringify(ended));
    const [file] = readdirSync(workspace.path).filter((name) => name.startsWith('seen-'));
    const input = JSON.parse(readFileSync(join(workspace.path, file), 'utf8')) as { prompt: string };
    rmSync(join(workspace.path, file));
    return input.prompt;
  }

  const first = await turn('fix the build');
  assert.match(first, /^fix the build\n\nEvents from this session's command runs since your last turn:\n- build_error: watcher 0 matched "error TS2322" in the stdout of run_/);
  const [message] = await client.call('exec.backlog', { sessionId: session.id });
  assert.equal(message.delivered, true);

  const second = await turn('anything else?');
  assert.equal(second, 'anything else?', 'a delivered message is not delivered again');
});
