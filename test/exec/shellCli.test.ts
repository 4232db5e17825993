import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { hostWithWorkspace } from '../server/connect';

const cli = omniCli();

/** Runs `omni` without blocking this process's event loop: the host it talks to runs here. */
function omni(home: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args, '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

test('omni shell drives the running host: spawn, poll until exit, and the UI sees the same run', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  writeFileSync(join(workspace.path, 'hello.txt'), 'from the workspace\n');

  const spawned = await omni(host.home, 'shell', JSON.stringify({ action: 'spawn', command: 'cat hello.txt; echo done >&2' }), '--session', session.id);
  assert.equal(spawned.code, 0, spawned.err);
  const { run_id: runId } = JSON.parse(spawned.out) as { run_id: string };
  assert.match(runId, /^run_/);

  let poll: { status: string; exit_code: number | null; items: { kind: string; data: string }[] } | undefined;
  for (let i = 0; i < 100; i++) {
    const result = await omni(host.home, 'shell', JSON.stringify({ action: 'poll', run_id: runId, since_seq: 0 }));
    assert.equal(result.code, 0, result.err);
    poll = JSON.parse(result.out) as typeof poll;
    if (poll!.status === 'exited') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(poll?.status, 'exited');
  assert.equal(poll?.exit_code, 0);
  assert.equal(poll!.items.filter((i) => i.kind === 'stdout').map((i) => i.data).join(''), 'from the workspace\n');
  assert.equal(poll!.items.filter((i) => i.kind === 'stderr').map((i) => i.data).join(''), 'done\n');

  // The UI's list shows the run the script started, as the user's.
  const runs = await client.call('exec.runs', { sessionId: session.id });
  assert.deepEqual(runs.map((r) => [r.run_id, r.actor, r.status]), [[runId, 'user', 'exited']]);

  // What agents' commands would get here, in words the Runs panel shows.
  const report = await client.call('exec.sandbox', {});
  assert.equal(report.usable, true, report.problem?.message);
  assert.ok(report.items.some((item) => item.id === 'bwrap' && item.enforced && /bubblewrap/.test(item.sentence)));
});

test('omni shell: a refused request prints the typed error as JSON and exits 1', async (t) => {
  const { host } = await hostWithWorkspace(t);
  const unknownRun = await omni(host.home, 'shell', JSON.stringify({ action: 'poll', run_id: 'run_doesnotexist' }));
  assert.equal(unknownRun.code, 1);
  assert.equal((JSON.parse(unknownRun.err) as { error: { code: string } }).error.code, 'NOT_FOUND');

  const badAction = await omni(host.home, 'shell', JSON.stringify({ action: 'launch', command: 'ls' }));
  assert.equal(badAction.code, 1);
  const body = JSON.parse(badAction.err) as { error: { code: string; issues: { path: string }[] } };
  assert.equal(body.error.code, 'INVALID_PARAMS');
  assert.equal(body.error.issues[0].path, 'action');

  const notJson = await omni(host.home, 'shell', '{action: poll}');
  assert.equal(notJson.code, 2);
  assert.match(notJson.err, /not valid JSON/);
});

test('omni shell without a running host says so and exits 3; a stale host file is recognised', async (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const none = await omni(home.path, 'shell', JSON.stringify({ action: 'poll', run_id: 'run_abcdefgh' }));
  assert.equal(none.code, 3);
  assert.match(none.err, /no Omniscient Shell host is running for the home .*omni serve/);

  // Left behind by a host that crashed: its pid is gone.
  const hostFile = join(home.path, 'host.json');
  writeFileSync(hostFile, JSON.stringify({ url: 'http://127.0.0.1:9', port: 9, token: 'x', pid: 2 ** 22 + 1 }), { mode: 0o600 });
  const stale = await omni(home.path, 'shell', JSON.stringify({ action: 'poll', run_id: 'run_abcdefgh' }));
  assert.equal(stale.code, 3);
  assert.match(stale.err, /has exited; start it again/);

  // A token file others can read is not trusted.
  chmodSync(hostFile, 0o644);
  const open = await omni(home.path, 'shell', JSON.stringify({ action: 'poll', run_id: 'run_abcdefgh' }));
  assert.equal(open.code, 3);
  assert.match(open.err, /readable by other users/);
});
