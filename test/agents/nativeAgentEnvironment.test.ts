// A native agent sees nothing of the host's environment: not its PATH (a pyenv shim dir would pick the agent's
// interpreter), not its PYENV_* settings, not a token the user exported. It gets the sandbox's own small base, as
// the commands agents run through the shell tool do.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent } from '../../src-preload/contract';
import { tempDir } from '../helpers';
import { hostWithWorkspace } from '../server/connect';
import { manifestText, writeAgent } from './agentFolders';

/** Writes its whole environment, NUL-separated, into the workspace (kept: it exits 0). */
const SCRIPT = `#!/bin/sh
read -r input
env -0 > seen-env
exit 0
`;

const HOST_ONLY = {
  PYENV_ROOT: '/opt/host-pyenv',
  PYENV_VERSION: '3.9.99-host',
  PYENV_SHELL: 'bash',
  ACME_API_TOKEN: 'host-only-token-value-0123456789',
};

test('a native agent gets none of the host\'s PATH, PYENV_* or exported tokens', { timeout: 60_000 }, async (t) => {
  const shims = tempDir('host-shims');
  t.after(shims.cleanup);
  mkdirSync(join(shims.path, 'bin'));
  // The host's environment as a developer's machine has it; restored after the test.
  const saved = { PATH: process.env.PATH, ...Object.fromEntries(Object.keys(HOST_ONLY).map((name) => [name, process.env[name]])) };
  t.after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const hostPathDir = join(shims.path, 'bin');
  process.env.PATH = `${hostPathDir}:${process.env.PATH ?? ''}`;
  Object.assign(process.env, HOST_ONLY);

  const { host, client, workspace } = await hostWithWorkspace(t);
  const folder = writeAgent(
    join(host.home, 'agents'),
    'env-probe',
    manifestText({ name: '"env-probe"', entry: '"agent.sh"', sandbox: '"native"', capabilities: '["files.write"]' }),
    { path: 'agent.sh', bytes: Buffer.from(SCRIPT) },
  );
  chmodSync(join(folder, 'agent.sh'), 0o755);
  const session = await client.call('session.create', { workspace: workspace.path });
  client.subscribe('consent.prompts', { sessionId: session.id }, {
    onItem: (event) => {
      if (event.kind === 'pending') void client.call('consent.answer', { promptId: event.prompt.id, answer: { kind: 'allow_once' } });
    },
  });
  const started = await client.call('agent.start', { sessionId: session.id, agent: 'env-probe', prompt: 'go' });
  const events: AgentRunEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('agent.events', { runId: started.id }, { onItem: (event) => events.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  const last = events.at(-1);
  assert.ok(last?.kind === 'ended' && last.run.outcome === 'completed', JSON.stringify(last));

  const seen = new Map(
    readFileSync(join(workspace.path, 'seen-env'), 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const),
  );
  // Names only in the messages: the values are the host's.
  for (const name of Object.keys(HOST_ONLY)) assert.equal(seen.has(name), false, `the agent sees the host's ${name}`);
  assert.deepEqual([...seen.keys()].filter((name) => name.startsWith('PYENV')), [], 'no PYENV_* at all');
  const values = [...seen.values()].join('\n');
  for (const value of Object.values(HOST_ONLY)) assert.equal(values.includes(value), false, 'a host-only value reached the agent under another name');
  const path = seen.get('PATH') ?? '';
  assert.equal(path.split(':').includes(hostPathDir), false, "the agent's PATH has the host's own directory in it");
  assert.equal(path, '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', "the sandbox's base PATH, not the host's");
  assert.equal(seen.get('OMNI_AGENT_ID'), 'env-probe', 'what the host means it to have does arrive');
});
