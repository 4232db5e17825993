import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../helpers';
import { execFixture, type ExecFixture } from './execFixture';
import { stressScale } from '../stressScale';

const sessionId = (i: number) => `ses_worker${String(i).padStart(6, '0')}`;

async function allEnded(f: ExecFixture, count: number, timeoutMs: number): Promise<void> {
  const ended = f.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM exec_runs WHERE status NOT IN ('queued', 'running')");
  await waitFor(() => ended.get()!.n === count, `${count} runs to end`, timeoutMs);
}

/** The most intervals [start, end) open at one instant (an end at the same instant as a start closes first). */
function maxOverlap(intervals: { start: number; end: number }[]): number {
  const edges = intervals.flatMap(({ start, end }) => [
    { at: start, delta: 1 },
    { at: end, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let max = 0;
  for (const edge of edges) max = Math.max(max, (open += edge.delta));
  return max;
}

const RUNS = stressScale(10_000, 1_000);
const SESSIONS = 50;

test(`${RUNS.toLocaleString('en')} runs across ${SESSIONS} sessions: each executes exactly once, one at a time per session, in queue order, several sessions at once`, async (t) => {
  const f = await execFixture({ concurrency: 8 });
  t.after(() => f.close());
  for (let i = 0; i < RUNS; i++) {
    await f.shell({ action: 'spawn', command: ['/bin/true'], session_id: sessionId(i % SESSIONS) });
  }
  await allEnded(f, RUNS, 400_000);

  const runs = f.db
    .prepare<[], { run_id: string; session_id: string; status: string; exit_code: number; attempt: number; started_at: number; ended_at: number; ord: number }>(
      'SELECT run_id, session_id, status, exit_code, attempt, started_at, ended_at, ord FROM exec_runs ORDER BY ord',
    )
    .all();
  assert.equal(runs.length, RUNS);
  assert.deepEqual(
    runs.filter((run) => run.status !== 'exited' || run.exit_code !== 0 || run.attempt !== 1),
    [],
    'every run exited 0 on its first attempt',
  );
  // Executed exactly once: one exec.spawn ledger entry per run (the worker writes it as it starts the process),
  // and one exit item per run.
  await f.ledger.flush();
  const spawns = f.db
    .prepare<[], { entries: number; runs: number }>(
      "SELECT count(*) AS entries, count(DISTINCT json_extract(payload, '$.run_id')) AS runs FROM audit_ledger WHERE type = 'exec.spawn'",
    )
    .get()!;
  assert.deepEqual(spawns, { entries: RUNS, runs: RUNS });
  const exits = f.db
    .prepare<[], { runs: number; most: number }>(
      "SELECT count(*) AS runs, max(n) AS most FROM (SELECT count(*) AS n FROM exec_run_items WHERE kind = 'event' AND data = 'exit' GROUP BY run_id)",
    )
    .get()!;
  assert.deepEqual(exits, { runs: RUNS, most: 1 });

  const bySession = new Map<string, typeof runs>();
  for (const run of runs) bySession.set(run.session_id, [...(bySession.get(run.session_id) ?? []), run]);
  assert.equal(bySession.size, SESSIONS);
  for (const [session, list] of bySession) {
    for (let i = 1; i < list.length; i++) {
      // In queue order (ord), each started only once the one before it had ended.
      assert.ok(list[i].started_at >= list[i - 1].ended_at, `${session}: run ${i} started before run ${i - 1} ended`);
    }
  }
  const overlap = maxOverlap(runs.map((run) => ({ start: run.started_at, end: run.ended_at + 0.5 })));
  assert.ok(overlap >= 2, `runs of different sessions executed at the same time (at most ${overlap} at once)`);
  t.diagnostic(`most runs overlapping by their millisecond timestamps: ${overlap} (rounding makes this exceed the concurrency of 8)`);
});

test('seen from the processes themselves: never two runs of a session at once, several sessions at once', async (t) => {
  const f = await execFixture({ concurrency: 8 });
  t.after(() => f.close());
  const SESSIONS = 6;
  const PER_SESSION = 15;
  for (let s = 0; s < SESSIONS; s++) mkdirSync(join(f.workspace, `s${s}`));
  // mkdir is atomic: a second run of the session starting while the first holds the lock exits 9.
  const command = 'mkdir lock || exit 9; s=$(date +%s%N); sleep 0.03; echo "$s $(date +%s%N)" >> times; rmdir lock';
  for (let i = 0; i < PER_SESSION; i++) {
    for (let s = 0; s < SESSIONS; s++) await f.shell({ action: 'spawn', command, session_id: sessionId(s), cwd: `s${s}` });
  }
  await allEnded(f, SESSIONS * PER_SESSION, 60_000);
  const failed = f.db.prepare("SELECT run_id, exit_code FROM exec_runs WHERE status <> 'exited' OR exit_code <> 0").all();
  assert.deepEqual(failed, [], 'no run found its session lock taken');
  const intervals = [];
  for (let s = 0; s < SESSIONS; s++) {
    const lines = readFileSync(join(f.workspace, `s${s}`, 'times'), 'utf8').trim().split('\n');
    assert.equal(lines.length, PER_SESSION, `session ${s}: every run ran once`);
    const own = lines.map((line) => line.split(' ').map((n) => Number(BigInt(n) / 1000n)) as [number, number]);
    assert.equal(maxOverlap(own.map(([start, end]) => ({ start, end }))), 1, `session ${s}: one at a time`);
    intervals.push(...own.map(([start, end]) => ({ start, end })));
  }
  const overlap = maxOverlap(intervals);
  assert.ok(overlap >= 2 && overlap <= 8, `several sessions ran at once, within the concurrency bound (${overlap})`);
  t.diagnostic(`most sessions at once (process side): ${overlap}`);
});
