// spawn_agent's timeout contract (spec host-interface-v3.1 §1, DESIGN security invariant 6), through the real host:
// at timeout_seconds the whole agent is killed — a native agent's daemonised grandchild included — and nothing it
// wrote is visible in the workspace; a WASM agent's writes are held back the same way. Success commits the writes.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../../helpers';
import { startSpawnHost } from './fixtures/spawnHost';

const output = (agent: string, text: string): string =>
  `printf '{"schema_version":"0.1","type":"output","agent_id":"${agent}","chunk_id":"main","content_type":"text/plain","data":"%s"}\\n' "${text}"`;

/** Writes two files, starts a grandchild in its own session (setsid) that sleeps 600 s, then sleeps 600 s itself. */
const hangingScript = (marker: string): string => `#!/bin/sh
read -r input
echo partial > partial.txt
mkdir -p drafts && echo half > drafts/inner.txt
setsid sh -c 'sleep ${marker}; echo never' > /dev/null 2>&1 < /dev/null &
${output('hanger', 'started a grandchild')}
sleep ${marker}
`;

const WASM_AGENT = `
import { omni_alloc, output, readInput, writeFile } from 'omni-sdk';
export { omni_alloc };
export function omni_start(ptr: usize, len: i32): void {}
export function omni_invoke(ptr: usize, len: i32): void {
  const input = readInput(ptr, len);
  const written = writeFile('drafts/partial.txt', 'half of a draft');
  output('text/plain', written.ok ? 'wrote drafts/partial.txt' : 'write failed: ' + written.code, 'main');
  if (input.prompt.includes('hang')) {
    let spins: i64 = 0;
    while (spins >= 0) spins++;
  }
}
export function omni_shutdown(): void {}
`;

test('a native agent past timeout_seconds: status timeout, its whole process tree gone, none of its writes in the workspace', { timeout: 90_000 }, async (t) => {
  const host = await startSpawnHost(t);
  // A sleep length no other process on the machine has: the grandchild is found by it in /proc.
  const marker = `600.${randomInt(100_000, 999_999)}`;
  host.installNative('hanger', hangingScript(marker));
  // The sandbox makes an empty .meta before binding it read-only (docs/native-sandbox.md): the host's, not the agent's.
  const listing = (): string[] => readdirSync(host.workspace).filter((name) => name !== '.meta').sort();
  const before = listing();

  const response = host.services.spawnAgent.spawn('hanger', 'You write drafts.', 'Write a draft, slowly.', { timeout_seconds: 2 }, host.context);
  // While it runs: the agent's sleep and its grandchild's are there (so the check below can fail).
  await waitFor(() => host.processesWith(marker).length >= 2, 'the agent and its grandchild sleeping', 30_000);
  assert.equal(existsSync(join(host.workspace, 'partial.txt')), false, 'staged: not in the workspace while it runs');

  const result = await response;
  assert.equal(result.status, 'timeout', result.data);
  assert.match(result.data, /ran past its timeout of 2 s/);
  assert.match(result.data, /started a grandchild/, 'the output so far is kept in data');
  assert.ok(result.metadata.duration_ms >= 2000, `duration ${result.metadata.duration_ms} ms`);
  assert.equal(result.metadata.tokens_used, 0);

  // No descendant is left 7 s after the timeout, the setsid'd grandchild included.
  const answeredAt = Date.now();
  await waitFor(() => host.processesWith(marker).length === 0, 'every process of the agent gone', 7000);
  t.diagnostic(`response after ${result.metadata.duration_ms} ms; every process gone ${Date.now() - answeredAt} ms after the response`);
  assert.deepEqual(listing(), before, 'no file or folder of the agent in the workspace');

  const ledger = host.services.ledger.list({ sessionId: host.sessionId, limit: 200 });
  const end = ledger.find((entry) => entry.type === 'host.spawn_end');
  assert.equal((end?.payload as { status?: string } | undefined)?.status, 'timeout');
  assert.ok(ledger.some((entry) => entry.type === 'host.spawn_start'), 'the start is ledgered');
});

test('a native agent that finishes in time: status success, data is its output, its writes are committed', { timeout: 60_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installNative('writer', `#!/bin/sh
read -r input
echo "a finished draft" > draft.txt
${output('writer', 'draft written')}
`);
  const progress: string[] = [];
  host.services.progress.onDidLog((entry) => progress.push(`${entry.level}: ${entry.message}`));
  const result = await host.services.spawnAgent.spawn('writer', 'You write drafts.', 'Write one.', { timeout_seconds: 30 }, host.context);
  assert.equal(result.status, 'success', result.data);
  assert.equal(result.data, 'draft written');
  assert.equal(readFileSync(join(host.workspace, 'draft.txt'), 'utf8'), 'a finished draft\n');
  assert.equal(progress.length, 2, progress.join('\n'));
  assert.equal(progress[0], 'info: Agent "writer" started');
  assert.match(progress[1], /^info: Agent "writer" finished in \d+\.\d s$/);
});

test('a WASM agent: its file writes are staged — dropped at the timeout, committed on success', { timeout: 120_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installWasm('wasm-drafter', WASM_AGENT, ['files.write']);
  host.grant('wasm-drafter', 'files.write');

  const timedOut = await host.services.spawnAgent.spawn('wasm-drafter', '', 'hang after writing', { timeout_seconds: 2 }, host.context);
  assert.equal(timedOut.status, 'timeout', timedOut.data);
  assert.match(timedOut.data, /wrote drafts\/partial\.txt/, 'it did write (to the staging area)');
  assert.equal(existsSync(join(host.workspace, 'drafts')), false, 'nothing of the write, not even its folder, reached the workspace');
  const dropped = host.services.ledger.list({ sessionId: host.sessionId, limit: 200 }).find((entry) => entry.type === 'agent.writes_dropped');
  assert.deepEqual((dropped?.payload as { paths?: string[] } | undefined)?.paths, ['drafts/partial.txt']);

  const finished = await host.services.spawnAgent.spawn('wasm-drafter', '', 'write and finish', { timeout_seconds: 30 }, host.context);
  assert.equal(finished.status, 'success', finished.data);
  assert.equal(finished.data, 'wrote drafts/partial.txt');
  assert.equal(readFileSync(join(host.workspace, 'drafts', 'partial.txt'), 'utf8'), 'half of a draft');
});
