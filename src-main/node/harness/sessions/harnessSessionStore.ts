import { randomBytes } from 'node:crypto';
import type { HarnessSession } from '../../../../src-preload/contract/harness';
import type { Database } from '../../store/database';

type Row = {
  id: string;
  session_id: string;
  frontend: HarnessSession['frontend'];
  provider: HarnessSession['provider'];
  interaction_mode: HarnessSession['interactionMode'];
  io_mode: HarnessSession['ioMode'];
  model: string | null;
  continuation_key: string | null;
  origin_cwd: string;
  status: HarnessSession['status'];
  exit_code: number | null;
  status_reason: string | null;
  display_command: string | null;
  terminal_id: string | null;
  created_at: number;
  updated_at: number;
  launched_at: number | null;
};

function fromRow(row: Row): HarnessSession {
  return {
    id: row.id,
    sessionId: row.session_id,
    frontend: row.frontend,
    provider: row.provider,
    interactionMode: row.interaction_mode,
    ioMode: row.io_mode,
    model: row.model,
    continuation: { provider: row.provider, ...(row.continuation_key !== null ? { key: row.continuation_key } : {}) },
    originCwd: row.origin_cwd,
    status: row.status,
    exitCode: row.exit_code,
    statusReason: row.status_reason,
    displayCommand: row.display_command,
    terminalId: row.terminal_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    launchedAt: row.launched_at,
  };
}

export type NewHarnessSession = Pick<HarnessSession, 'sessionId' | 'frontend' | 'provider' | 'interactionMode' | 'ioMode' | 'model' | 'originCwd'>;

/** What a launch or its end changes on the row; undefined fields stay as they are. */
export type HarnessSessionUpdate = Partial<{
  frontend: HarnessSession['frontend'];
  interactionMode: HarnessSession['interactionMode'];
  ioMode: HarnessSession['ioMode'];
  continuationKey: string;
  status: HarnessSession['status'];
  exitCode: number | null;
  statusReason: string | null;
  displayCommand: string;
  terminalId: string | null;
  launchedAt: number;
}>;

const COLUMNS: Record<keyof HarnessSessionUpdate, string> = {
  frontend: 'frontend',
  interactionMode: 'interaction_mode',
  ioMode: 'io_mode',
  continuationKey: 'continuation_key',
  status: 'status',
  exitCode: 'exit_code',
  statusReason: 'status_reason',
  displayCommand: 'display_command',
  terminalId: 'terminal_id',
  launchedAt: 'launched_at',
};

/** The harness_sessions table (migration 11). Holds no secret: credentials come from the vault's proxy per launch. */
export class HarnessSessionStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  create(input: NewHarnessSession): HarnessSession {
    const id = `hrn_${randomBytes(12).toString('base64url')}`;
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO harness_sessions (id, session_id, frontend, provider, interaction_mode, io_mode, model, origin_cwd, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'starting', ?, ?)`,
      )
      .run(id, input.sessionId, input.frontend, input.provider, input.interactionMode, input.ioMode, input.model, input.originCwd, at, at);
    return this.get(id)!;
  }

  get(id: string): HarnessSession | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM harness_sessions WHERE id = ?').get(id);
    return row ? fromRow(row) : undefined;
  }

  list(sessionId: string): HarnessSession[] {
    return this.db.prepare<[string], Row>('SELECT * FROM harness_sessions WHERE session_id = ? ORDER BY created_at, id').all(sessionId).map(fromRow);
  }

  remove(id: string): void {
    this.db.prepare('DELETE FROM harness_sessions WHERE id = ?').run(id);
  }

  /** Whether a stored session already owns this conversation id (so a watcher does not take another's thread). */
  ownsKey(key: string): boolean {
    return this.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM harness_sessions WHERE continuation_key = ?').get(key)!.n > 0;
  }

  update(id: string, change: HarnessSessionUpdate): HarnessSession {
    const names = (Object.keys(change) as (keyof HarnessSessionUpdate)[]).filter((name) => change[name] !== undefined);
    const sets = names.map((name) => `${COLUMNS[name]} = ?`);
    const values = names.map((name) => change[name] ?? null);
    this.db.prepare(`UPDATE harness_sessions SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`).run(...values, this.now(), id);
    return this.get(id)!;
  }

  /**
   * At host start: a row still marked live belongs to a CLI that ended with the previous host (its processes die
   * with their PTY or process group). It becomes `stopped`, resumable from its key.
   */
  markInterrupted(reason: string): HarnessSession[] {
    const rows = this.db.prepare<[], Row>("SELECT * FROM harness_sessions WHERE status IN ('starting', 'running')").all();
    for (const row of rows) this.update(row.id, { status: 'stopped', statusReason: reason, terminalId: null });
    return rows.map((row) => this.get(row.id)!);
  }
}
