import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { manifestText, writeAgent } from '../agents/agentFolders';
import { waitFor } from '../helpers';
import { hostWithWorkspace } from '../server/connect';

/** A native agent that would print a line; it is asked about before it starts, and nobody answers here. */
const SCRIPT = `#!/bin/sh
read -r input
printf '{"schema_version":"0.1","type":"output","agent_id":"idle-agent","chunk_id":"main","content_type":"text/markdown","data":"hello"}\\n'
`;

test('an agent run is counted as running in its session, and closing the session stops it', { timeout: 60_000 }, async (t) => {
  const { client, host, workspace } = await hostWithWorkspace(t);
  const folder = writeAgent(join(host.home, 'agents'), 'idle-agent', manifestText({ name: '"idle-agent"', entry: '"agent.sh"', sandbox: '"native"', capabilities: '[]' }), {
    path: 'agent.sh',
    bytes: Buffer.from(SCRIPT),
  });
  chmodSync(join(folder, 'agent.sh'), 0o755);
  const session = await client.call('session.create', { workspace: workspace.path });
  const run = await client.call('agent.start', { sessionId: session.id, agent: 'idle-agent', prompt: 'wait' });

  assert.deepEqual(await client.call('session.running', { id: session.id }), { terminals: 0, runs: 0, agents: 1 });

  await client.call('session.close', { id: session.id });

  const runs = await waitFor(async () => {
    const listed = (await client.call('agent.runs', { sessionId: session.id })).find((r) => r.id === run.id);
    return listed?.endedAt !== null ? listed : undefined;
  }, 'the run to end');
  assert.equal(runs.outcome, 'stopped', 'the run stopped with its session (it was not left running in a closed session)');
  assert.deepEqual(await client.call('session.running', { id: session.id }), { terminals: 0, runs: 0, agents: 0 });
});
