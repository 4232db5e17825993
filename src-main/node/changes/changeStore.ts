import type { ChangeTurn, Snapshot, SkippedFile, TurnSource, Verdict } from '../../../src-preload/contract/changes';
import type { Database } from '../store/database';

export interface SnapshotRow {
  id: string;
  session_id: string;
  turn_id: string | null;
  moment: Snapshot['moment'];
  /** NULL when the snapshot could not be taken: `error` says why. */
  tree: string | null;
  error: string | null;
  taken_at: number;
  files_changed: number;
  skipped: string;
}

export interface TurnRow {
  id: string;
  session_id: string;
  source_kind: TurnSource['kind'];
  source_id: string;
  source_seq: number | null;
  agent: string;
  title: string;
  started_at: number;
  ended_at: number | null;
  before_snapshot: string;
  after_snapshot: string | null;
  files_changed: number;
}

/** One verdict row; `hunk` -1 is the file's own (see migration 13). */
export interface VerdictRow {
  path: string;
  hunk: number;
  verdict: Verdict;
}

/** The file's own row in change_verdicts. */
export const FILE_VERDICT = -1;

/** A snapshot row as the timeline shows it, with the agent and title of the turn it belongs to. */
type TimelineRow = SnapshotRow & { agent: string | null; title: string | null };

/** The rows of migration 13: snapshots, turns and verdicts. SQL only; the rules are the service's. */
export class ChangeStore {
  constructor(private readonly db: Database) {}

  insertSnapshot(row: SnapshotRow): void {
    this.db
      .prepare(
        'INSERT INTO change_snapshots (id, session_id, turn_id, moment, tree, error, taken_at, files_changed, skipped) VALUES (@id, @session_id, @turn_id, @moment, @tree, @error, @taken_at, @files_changed, @skipped)',
      )
      .run(row);
  }

  snapshot(id: string): SnapshotRow | undefined {
    return this.db.prepare<[string], SnapshotRow>('SELECT * FROM change_snapshots WHERE id = ?').get(id);
  }

  hasSnapshots(sessionId: string): boolean {
    return this.db.prepare<[string], { one: number }>('SELECT 1 AS one FROM change_snapshots WHERE session_id = ? LIMIT 1').get(sessionId) !== undefined;
  }

  /** The session's newest snapshot that was taken, to count what the next one changed. */
  lastTakenSnapshot(sessionId: string): SnapshotRow | undefined {
    return this.db
      .prepare<[string], SnapshotRow>('SELECT * FROM change_snapshots WHERE session_id = ? AND tree IS NOT NULL ORDER BY taken_at DESC, rowid DESC LIMIT 1')
      .get(sessionId);
  }

  timeline(sessionId: string): TimelineRow[] {
    return this.db
      .prepare<[string], TimelineRow>(
        'SELECT s.*, t.agent, t.title FROM change_snapshots s LEFT JOIN change_turns t ON t.id = s.turn_id WHERE s.session_id = ? ORDER BY s.taken_at, s.rowid',
      )
      .all(sessionId);
  }

  insertTurn(row: TurnRow): void {
    this.db
      .prepare(
        `INSERT INTO change_turns (id, session_id, source_kind, source_id, source_seq, agent, title, started_at, ended_at, before_snapshot, after_snapshot, files_changed)
         VALUES (@id, @session_id, @source_kind, @source_id, @source_seq, @agent, @title, @started_at, @ended_at, @before_snapshot, @after_snapshot, @files_changed)`,
      )
      .run(row);
  }

  endTurn(id: string, endedAt: number, afterSnapshot: string, filesChanged: number): void {
    this.db
      .prepare('UPDATE change_turns SET ended_at = ?, after_snapshot = ?, files_changed = ? WHERE id = ? AND ended_at IS NULL')
      .run(endedAt, afterSnapshot, filesChanged, id);
  }

  turn(id: string): TurnRow | undefined {
    return this.db.prepare<[string], TurnRow>('SELECT * FROM change_turns WHERE id = ?').get(id);
  }

  /** Turns not ended: running in this host, or left open by one that stopped mid-turn. */
  openTurns(): TurnRow[] {
    return this.db.prepare<[], TurnRow>('SELECT * FROM change_turns WHERE ended_at IS NULL ORDER BY started_at, rowid').all();
  }

  turns(sessionId: string): TurnRow[] {
    return this.db.prepare<[string], TurnRow>('SELECT * FROM change_turns WHERE session_id = ? ORDER BY started_at, rowid').all(sessionId);
  }

  /** Every verdict row of a turn (files' and hunks'). */
  verdicts(turnId: string): VerdictRow[] {
    return this.db.prepare<[string], VerdictRow>('SELECT path, hunk, verdict FROM change_verdicts WHERE turn_id = ?').all(turnId);
  }

  fileVerdicts(turnId: string, path: string): VerdictRow[] {
    return this.db.prepare<[string, string], VerdictRow>('SELECT path, hunk, verdict FROM change_verdicts WHERE turn_id = ? AND path = ?').all(turnId, path);
  }

  setVerdict(turnId: string, path: string, hunk: number, verdict: Verdict, at: number): void {
    this.db
      .prepare(
        'INSERT INTO change_verdicts (turn_id, path, hunk, verdict, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (turn_id, path, hunk) DO UPDATE SET verdict = excluded.verdict, at = excluded.at',
      )
      .run(turnId, path, hunk, verdict, at);
  }
}

export const skippedOf = (row: Pick<SnapshotRow, 'skipped'>): SkippedFile[] => JSON.parse(row.skipped) as SkippedFile[];

export function toSnapshot(row: TimelineRow): Snapshot {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    moment: row.moment,
    agent: row.agent ?? 'host',
    title: row.title ?? (row.moment === 'start' ? 'Session start' : ''),
    takenAt: row.taken_at,
    filesChanged: row.files_changed,
    skipped: skippedOf(row),
  };
}

export function toTurn(row: TurnRow, verdict: Verdict): ChangeTurn {
  return {
    id: row.id,
    sessionId: row.session_id,
    source: { kind: row.source_kind, id: row.source_id, ...(row.source_seq === null ? {} : { seq: row.source_seq }) },
    agent: row.agent,
    title: row.title,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    before: row.before_snapshot,
    after: row.after_snapshot,
    filesChanged: row.files_changed,
    verdict,
  };
}
