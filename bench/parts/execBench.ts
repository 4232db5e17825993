// The shell tool's figures (src-main/node/exec), each next to a reference measured in the same process and run.
// Run (bundled) by bench/parts/exec.mjs; prints one JSON object on stdout.
//
//   poll        `shell {action: poll, run_id, since_seq}` through ExecService on a 1M-item run: an agent's incremental
//               poll (the last 10 items) against the raw prepared SELECT of the same rows; and a full page (1,000
//               items from a random since_seq) against the same raw SELECT. Goal: incremental p50 < 1 ms.
//   kill        `shell {action: kill}` on a run whose tree holds a child in its group and a daemonised grandchild
//               (setsid + double fork), until /proc shows none of them; goal ≤ 2 s (the issue's).
//   run         a `/bin/true` run through the worker (spawn → exit item written) against child_process.spawn of the same
//               program to its exit event: what the queue, the database and the ledger add to a process start.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecService } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';

const ITEMS = Number(process.env.BENCH_EXEC_ITEMS ?? 1_000_000);
const POLLS = Number(process.env.BENCH_EXEC_POLLS ?? 2_000);
const KILL_ROUNDS = Number(process.env.BENCH_EXEC_KILLS ?? 10);
const RUN_ROUNDS = Number(process.env.BENCH_EXEC_RUNS ?? 200);
const SESSION = 'ses_benchexec0001';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-exec-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  const db = openDatabase(join(dir, 'sessions.db'));
  const ledger = new Ledger(db);
  const exec = new ExecService(db, ledger);
  await exec.start();
  const caller = { actor: 'user', workspace };
  try {
    // A finished run with ITEMS output items, written straight into the table (as a long run would have left it).
    const runId = 'run_benchpoll000000';
    db.prepare(
      `INSERT INTO exec_runs (run_id, session_id, actor, argv, cwd, pty, background, status, exit_code, watch, max_attempts, created_at, attempt, last_seq, output_bytes)
       VALUES (?, ?, 'user', '["bench"]', ?, 0, 1, 'exited', 0, '[]', 3, 0, 1, ?, ?)`,
    ).run(runId, SESSION, workspace, ITEMS, ITEMS * 80);
    const insert = db.prepare('INSERT INTO exec_run_items (run_id, seq, ts, kind, data, detail) VALUES (?, ?, ?, ?, ?, NULL)');
    const line = 'x'.repeat(79) + '\n';
    db.transaction(() => {
      for (let seq = 1; seq <= ITEMS; seq++) insert.run(runId, seq, seq, 'stdout', line);
    })();
    const raw = db.prepare<[string, number, number]>('SELECT seq, ts, kind, data, detail FROM exec_run_items WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?');
    const measure = async (sinceSeq: () => number, limit: number) => {
      const service: number[] = [];
      const reference: number[] = [];
      for (let i = 0; i < POLLS; i++) {
        const since = sinceSeq();
        let started = performance.now();
        const page = await exec.shell({ action: 'poll', run_id: runId, since_seq: since }, caller);
        service.push(performance.now() - started);
        if (page.action !== 'poll' || page.items.length !== Math.min(limit, ITEMS - since)) throw new Error('unexpected poll page');
        started = performance.now();
        raw.all(runId, since, limit);
        reference.push(performance.now() - started);
      }
      return { p50Ms: percentile(service, 0.5), p99Ms: percentile(service, 0.99), referenceP50Ms: percentile(reference, 0.5) };
    };
    const incremental = await measure(() => ITEMS - 10, 10);
    const fullPage = await measure(() => Math.floor(Math.random() * (ITEMS - 1000)), 1000);

    // Kill: a child in the run's group and a daemon that left it.
    const killMs: number[] = [];
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const pidFile = join(workspace, `daemon-${round}.pid`);
      const childFile = join(workspace, `child-${round}.pid`);
      const command = `setsid sh -c 'sleep 300 & echo $! > ${pidFile}' </dev/null >/dev/null 2>&1 & sleep 300 & echo $! > ${childFile}; wait`;
      const spawned = await exec.shell({ action: 'spawn', command, session_id: SESSION }, caller);
      while (!existsSync(pidFile) || !existsSync(childFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(5);
      const pids = [Number(readFileSync(pidFile, 'utf8')), Number(readFileSync(childFile, 'utf8'))];
      const started = performance.now();
      void exec.shell({ action: 'kill', run_id: spawned.run_id }, caller);
      while (pids.some(alive)) await sleep(1);
      killMs.push(performance.now() - started);
    }

    // A cheap run through the worker against the bare process start.
    const runMs: number[] = [];
    const spawnMs: number[] = [];
    for (let round = 0; round < RUN_ROUNDS; round++) {
      let started = performance.now();
      await exec.shell({ action: 'spawn', command: ['/bin/true'], session_id: SESSION, background: false }, caller);
      runMs.push(performance.now() - started);
      started = performance.now();
      await new Promise((resolve) => spawn('/bin/true', [], { stdio: 'ignore' }).once('exit', resolve));
      spawnMs.push(performance.now() - started);
    }
    const run = { p50Ms: percentile(runMs, 0.5), referenceP50Ms: percentile(spawnMs, 0.5) };

    process.stdout.write(
      `${JSON.stringify({
        items: ITEMS,
        polls: POLLS,
        poll: { incremental, fullPage },
        kill: { rounds: KILL_ROUNDS, p50Ms: percentile(killMs, 0.5), maxMs: Math.max(...killMs), runs: killMs },
        run: { rounds: RUN_ROUNDS, ...run, ratio: run.referenceP50Ms / run.p50Ms },
      })}\n`,
    );
  } finally {
    await exec.dispose();
    await ledger.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
