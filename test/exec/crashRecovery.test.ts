import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunItem } from '../../src-preload/contract/exec';
import { runProcesses } from '../../src-main/node/exec/runProcesses';
import { openDatabaseReadOnly } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';
import { startHost } from './crashHost';
import { execFixture, SESSION } from './execFixture';

const LINES = 104_858; // 100-byte lines: 10,485,800 bytes
const LINES_PER_BLOCK = 640;
const BLOCK_EVERY_MS = 25;
const line = (n: number) => `${String(n).padStart(8, '0')} ${'abcdefghij'.repeat(9)}\n`;
const EXPECTED = Array.from({ length: LINES }, (_, n) => line(n)).join('');

/**
 * Prints the 10 MB above in 64 KB blocks every 25 ms (about 4 s): its output does not depend on timing, so a re-run
 * prints exactly the same. It keeps going when its reader is gone (EPIPE ignored) and keeps a `sleep` beside it in
 * its group, so a crashed host leaves live processes behind that recovery must end.
 */
const PRINTER = `
const line = (n) => String(n).padStart(8, '0') + ' ' + 'abcdefghij'.repeat(9) + '\\n';
process.stdout.on('error', () => {});
require('node:child_process').spawn('sleep', ['120'], { stdio: 'ignore' });
let n = 0;
const timer = setInterval(() => {
  let block = '';
  for (let i = 0; i < ${LINES_PER_BLOCK} && n < ${LINES}; i++) block += line(n++);
  process.stdout.write(block);
  if (n >= ${LINES}) { clearInterval(timer); process.exit(0); }
}, ${BLOCK_EVERY_MS});
`;

test('kill -9 of the host mid-run, restart: the run is recovered (old processes ended, recovery event, attempt 2) and its output is all there', async (t) => {
  const dir = tempDir('exec-crash');
  t.after(dir.cleanup);
  const dbFile = join(dir.path, 'memory', 'sessions.db');

  // Host 1 starts the printer and is killed once 3 MB of its output is stored.
  const first = startHost(dir.path, { action: 'spawn', command: [process.execPath, '-e', PRINTER], session_id: SESSION });
  const runId = (await first.next('run_id')).run_id as string;
  const reader = openDatabaseReadOnly(dbFile);
  const row = reader.prepare<[string], { output_bytes: number; pgid: number | null; status: string }>('SELECT output_bytes, pgid, status FROM exec_runs WHERE run_id = ?');
  await waitFor(() => row.get(runId)!.output_bytes >= 3_000_000, '3 MB of output stored', 30_000);
  first.child.kill('SIGKILL');
  await first.lines;
  const crashed = row.get(runId)!;
  reader.close();
  assert.equal(crashed.status, 'running', 'the crashed host left the run running');
  assert.ok(crashed.pgid, 'the process group was recorded');
  const oldGroup = crashed.pgid!;
  // The previous attempt is still alive (the printer ignores the lost pipe, its sleep is untouched).
  assert.ok(runProcesses(runId, oldGroup, 'if-marked').length >= 2, 'the printer and its sleep outlived the host');

  // Host 2 recovers it and runs it to the end.
  const second = startHost(dir.path);
  const { recovered } = (await second.next('recovered')) as { recovered: { runId: string; attempt: number; leftoverProcesses: number; outcome: string }[] };
  // At least the sleep (the printer itself may have finished by the time host 2 is up on a loaded machine).
  assert.deepEqual(recovered.map((r) => ({ ...r, leftoverProcesses: r.leftoverProcesses >= 1 })), [
    { runId, sessionId: SESSION, attempt: 1, leftoverProcesses: true, outcome: 'requeued' },
  ]);
  await second.next('idle');
  await second.lines;
  assert.throws(() => process.kill(-oldGroup, 0), /ESRCH/, 'the old process group is gone');
  assert.deepEqual(runProcesses(runId, oldGroup, 'if-marked'), [], 'no process of the run is left');

  // What the user sees when polling after the restart, page by page from the start.
  const f = await execFixture({}, { path: dir.path, cleanup: () => undefined });
  t.after(() => f.close());
  const items: RunItem[] = [];
  for (let since = 0, more = true; more; ) {
    const page = await f.shell({ action: 'poll', run_id: runId, since_seq: since });
    assert.equal(page.action, 'poll');
    items.push(...page.items);
    since = page.next_seq;
    more = page.more;
    if (!more) {
      assert.equal(page.status, 'exited');
      assert.equal(page.exit_code, 0);
    }
  }
  assert.deepEqual(items.map((item) => item.seq), items.map((_, i) => i + 1), 'seqs are gapless from 1');
  const recoveredAt = items.findIndex((item) => item.kind === 'event' && item.data === 'recovered');
  assert.ok(recoveredAt > 0, 'a recovery event follows the first attempt output');
  assert.equal(items[recoveredAt].detail?.attempt, 1);
  assert.equal(items[recoveredAt].detail?.outcome, 'requeued');
  const before = items.slice(0, recoveredAt);
  const after = items.slice(recoveredAt + 1);
  assert.ok(before.every((item) => item.kind === 'stdout'), 'before the recovery: only the first attempt output');
  const firstOutput = before.map((item) => item.data).join('');
  assert.ok(firstOutput.length >= 3_000_000, 'everything stored before the crash is still there');
  assert.equal(firstOutput, EXPECTED.slice(0, firstOutput.length), 'attempt 1: an exact prefix of the output');
  const exit = after.pop()!;
  assert.deepEqual({ kind: exit.kind, data: exit.data, status: exit.detail?.status, code: exit.detail?.exit_code }, { kind: 'event', data: 'exit', status: 'exited', code: 0 });
  assert.ok(after.every((item) => item.kind === 'stdout'));
  const secondOutput = after.map((item) => item.data).join('');
  assert.equal(secondOutput.length, EXPECTED.length);
  assert.ok(secondOutput === EXPECTED, 'attempt 2: the whole output, byte for byte');
  const run = f.exec.listRuns(SESSION).find((r) => r.run_id === runId)!;
  assert.equal(run.attempt, 2);
  assert.equal(run.output_bytes, firstOutput.length + EXPECTED.length, 'output size counts both attempts');
});
