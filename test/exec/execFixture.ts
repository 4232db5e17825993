import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellRequest, ShellResult } from '../../src-preload/contract/exec';
import { ExecService, type ExecServiceOptions, type ShellCaller } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

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
