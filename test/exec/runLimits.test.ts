import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runProcesses } from '../../src-main/node/exec/runProcesses';
import { waitFor } from '../helpers';
import { execFixture, outputOf, pollAll, spawnRun, waitEnded } from './execFixture';

test('timeout_secs ends the whole group: SIGTERM, then SIGKILL for what ignores it; status timed_out with a timeout event', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  // The shell and its background sleep ignore SIGTERM, so only the SIGKILL after the grace ends them.
  const runId = await spawnRun(f, { command: 'trap "" TERM; sleep 300 & echo $! > child.pid; wait', timeout_secs: 2 });
  const run = await waitEnded(f, runId);
  assert.equal(run.status, 'timed_out');
  assert.equal(run.reason, 'timed out after 2 s');
  assert.equal(run.signal, 'SIGKILL', 'SIGTERM was ignored, SIGKILL was not');
  const child = Number(readFileSync(join(f.workspace, 'child.pid'), 'utf8'));
  await waitFor(() => !existsSync(`/proc/${child}`) || readFileSync(`/proc/${child}/stat`, 'utf8').includes(') Z '), 'the background sleep to be gone');
  assert.deepEqual(runProcesses(runId, null), []);
  const { items } = await pollAll(f, runId);
  const events = items.filter((item) => item.kind === 'event');
  assert.deepEqual(events.map((item) => item.data), ['timeout', 'exit']);
  assert.equal(events[0].detail?.timeout_secs, 2);
  assert.equal(events[1].detail?.status, 'timed_out');
});

test('max_output_bytes keeps the first bytes, writes one truncation event, and lets the command run to its end', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  // 2 MB, far past the cap: the command must not block on a full pipe once output is dropped.
  const runId = await spawnRun(f, { command: "head -c 2000000 /dev/zero | tr '\\0' a; echo done >&2", max_output_bytes: 10_000 });
  const run = await waitEnded(f, runId);
  assert.equal(run.status, 'exited');
  assert.equal(run.exit_code, 0);
  assert.equal(run.truncated, true);
  assert.equal(run.output_bytes, 10_000);
  const { items } = await pollAll(f, runId);
  assert.equal(outputOf(items, 'stdout'), 'a'.repeat(10_000));
  assert.equal(outputOf(items, 'stderr'), '', 'stderr counts toward the same cap, which was already reached');
  const truncations = items.filter((item) => item.kind === 'event' && item.data === 'truncated');
  assert.equal(truncations.length, 1);
  assert.equal(truncations[0].detail?.max_output_bytes, 10_000);
});

test('the cap never splits a UTF-8 character (pipes and PTY)', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  for (const pty of [false, true]) {
    // "é" is two bytes: a cap of 1001 bytes keeps 500 of them whole.
    const runId = await spawnRun(f, { command: [process.execPath, '-e', "process.stdout.write('é'.repeat(5000))"], max_output_bytes: 1001, pty });
    await waitEnded(f, runId);
    const { items } = await pollAll(f, runId);
    assert.equal(outputOf(items, pty ? 'output' : 'stdout'), 'é'.repeat(500), pty ? 'pty' : 'pipe');
  }
});

test('output arriving in pieces that split characters is stored as whole characters', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  // Three bytes at a time, with pauses, so most reads end inside a character. Lines, since a line still being
  // written is held back until it ends (the scrubber's StreamScrubber): each finished line is an item.
  const script = "const b = Buffer.from('→ žluťoučký kůň 🐎\\n'.repeat(20)); let i = 0; const t = setInterval(() => { process.stdout.write(b.subarray(i, i + 3)); i += 3; if (i >= b.length) clearInterval(t); }, 1);";
  const runId = await spawnRun(f, { command: [process.execPath, '-e', script] });
  await waitEnded(f, runId);
  const { items } = await pollAll(f, runId);
  const chunks = items.filter((item) => item.kind === 'stdout');
  assert.ok(chunks.length > 5, 'several items');
  assert.ok(chunks.every((item) => !item.data.includes('\ufffd')), 'no item holds a broken character');
  assert.equal(outputOf(items, 'stdout'), '→ žluťoučký kůň 🐎\n'.repeat(20));
});

test('output that reaches the cap exactly, then more: the truncation event still comes', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  for (const pty of [false, true]) {
    const script = "process.stdout.write('x'.repeat(100)); setTimeout(() => process.stdout.write('more'), 300);";
    const runId = await spawnRun(f, { command: [process.execPath, '-e', script], max_output_bytes: 100, pty });
    const run = await waitEnded(f, runId);
    assert.equal(run.truncated, true, pty ? 'pty' : 'pipe');
    const { items } = await pollAll(f, runId);
    assert.equal(outputOf(items, pty ? 'output' : 'stdout'), 'x'.repeat(100));
    assert.equal(items.filter((item) => item.data === 'truncated').length, 1);
  }
});
