import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Run, RunItem, ShellRequest, ShellResult } from '../../src-preload/contract/exec';
import { ExecService, type ExecServiceOptions, type ShellCaller } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';

export const SESSION = 'ses_execfixture01';

/** An ExecService over a real database in a temp home, with the user as caller in a temp workspace. */
export interface ExecFixture {
  home: string;
  workspace: string;
  db: Database;
  ledger: Ledger;
  exec: ExecService;
  caller: ShellCaller;
  shell(request: ShellRequest): Promise<ShellResult>;
  close(): Promise<void>;
}

export async function execFixture(options: ExecServiceOptions = {}, dir = tempDir('exec')): Promise<ExecFixture> {
  const workspace = join(dir.path, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const db = openDatabase(join(dir.path, 'memory', 'sessions.db'));
  const ledger = new Ledger(db);
  const exec = new ExecService(db, ledger, options);
  await exec.start();
  const caller: ShellCaller = { actor: 'user', workspace };
  let closed = false;
  return {
    home: dir.path,
    workspace,
    db,
    ledger,
    exec,
    caller,
    shell: (request) => exec.shell(request, caller),
    async close() {
      if (closed) return;
      closed = true;
      await exec.dispose();
      await ledger.close();
      db.close();
      dir.cleanup();
    },
  };
}

/** Every item of the run, polled page by page through the shell tool, and the status of the last page. */
export async function pollAll(f: ExecFixture, runId: string): Promise<{ items: RunItem[]; status: string; exitCode: number | null }> {
  const items: RunItem[] = [];
  for (let since = 0; ; ) {
    const page = await f.shell({ action: 'poll', run_id: runId, since_seq: since });
    if (page.action !== 'poll') throw new Error('not a poll result');
    items.push(...page.items);
    since = page.next_seq;
    if (!page.more) return { items, status: page.status, exitCode: page.exit_code };
  }
}

/** Waits until the run has ended (polling through the shell tool) and returns it. */
export async function waitEnded(f: ExecFixture, runId: string, timeoutMs = 30_000): Promise<Run> {
  return waitFor(() => {
    const run = f.db.prepare<[string], { status: string }>('SELECT status FROM exec_runs WHERE run_id = ?').get(runId);
    if (!run || run.status === 'queued' || run.status === 'running') return undefined;
    const sessionId = f.db.prepare<[string], { session_id: string }>('SELECT session_id FROM exec_runs WHERE run_id = ?').get(runId)!.session_id;
    return f.exec.listRuns(sessionId).find((r) => r.run_id === runId);
  }, `${runId} to end`, timeoutMs);
}

/** Spawns and returns the run id. */
export async function spawnRun(f: ExecFixture, request: Omit<ShellRequest, 'action'>): Promise<string> {
  const result = await f.shell({ session_id: SESSION, ...request, action: 'spawn' });
  if (result.action !== 'spawn') throw new Error('not a spawn result');
  return result.run_id;
}

/** A fixture (closed after the test) with one run of `command` that has ended, and the run's items. */
export async function endedRun(t: { after(fn: () => unknown): void }, command: string): Promise<{ f: ExecFixture; runId: string; items: RunItem[] }> {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command });
  await waitEnded(f, runId);
  const { items } = await pollAll(f, runId);
  return { f, runId, items };
}

/** The text of the run's output items of `kind`, joined. */
export function outputOf(items: RunItem[], kind: RunItem['kind']): string {
  return items
    .filter((item) => item.kind === kind)
    .map((item) => item.data)
    .join('');
}
