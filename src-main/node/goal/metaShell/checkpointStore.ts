import { randomBytes } from 'node:crypto';
import { Emitter } from '../../../../src-preload/rpc';
import type { Ledger } from '../../ledger/ledger';
import type { Database } from '../../store/database';
import type { CheckpointSignal } from './checkpointSignal';
import { currentProcess, type ProcessIdentity } from './processIdentity';
import type { JsonValue } from './sessionState';
import { DomainError } from '../../base/domainError';

/** pending → answered → resuming → resumed: the journal of one checkpoint (the database refuses any other move). */
export type CheckpointStatus = 'pending' | 'answered' | 'resuming' | 'resumed';

/** What a resume came to, stored once, so every caller gets the same. */
export type ResumeOutcome = { ok: true; value: JsonValue } | { ok: false; error: string };

/** A checkpoint is named by its session and the agent's resume_id (single-use within the session). */
export interface CheckpointRef {
  sessionId: string;
  resumeId: string;
}

export interface CheckpointRecord extends CheckpointRef {
  agentName: string | null;
  reason: CheckpointSignal['reason'];
  message: string;
  options: string[];
  status: CheckpointStatus;
  /** The user's answer (null while pending); resume_data.user_input. */
  answer: JsonValue | null;
  answeredBy: string | null;
  answeredAt: number | null;
  createdAt: number;
  /** How many times a resume was started (more than 1: an earlier one was cut short, by a crash). */
  attempts: number;
  claimant: (ProcessIdentity & { token: string }) | null;
  outcome: ResumeOutcome | null;
}

/** A checkpoint appeared (raised) or got its first answer (answered), in this process: for the UI's dialog. */
export interface CheckpointChange {
  kind: 'raised' | 'answered';
  record: CheckpointRecord;
}

/** Points in the journal, for observers (tests kill the process at these). */
export type CheckpointStep = 'answer_stored' | 'resume_claimed' | 'resume_journaled';

export class CheckpointNotFoundError extends DomainError {
  constructor(readonly ref: CheckpointRef) {
    super('not_found', `no checkpoint "${ref.resumeId}" in session ${ref.sessionId}: it was never raised, or belongs to another session`);
    this.name = 'CheckpointNotFoundError';
  }
}

/** The answer does not fit the checkpoint (a decision answered with something that is not one of its options). */
export class CheckpointAnswerError extends DomainError {
  constructor(
    readonly ref: CheckpointRef,
    problem: string,
  ) {
    super('invalid_input', `answer to checkpoint "${ref.resumeId}": ${problem}`, {
      issues: [{ path: 'answer', message: `answer to checkpoint "${ref.resumeId}": ${problem}` }],
    });
    this.name = 'CheckpointAnswerError';
  }
}

/** The agent raised a resume_id already used for a different question in this session. */
export class CheckpointConflictError extends DomainError {
  constructor(readonly ref: CheckpointRef) {
    super('conflict', `resume_id "${ref.resumeId}" was already used in session ${ref.sessionId} for a different question; a resume_id is single-use: the agent must pick a new one`);
    this.name = 'CheckpointConflictError';
  }
}

interface Row {
  session_id: string;
  resume_id: string;
  agent_name: string | null;
  reason: CheckpointSignal['reason'];
  message: string;
  options: string;
  status: CheckpointStatus;
  answer: string | null;
  answered_by: string | null;
  answered_at: number | null;
  created_at: number;
  attempts: number;
  claim_token: string | null;
  claim_pid: number | null;
  claim_host: string | null;
  claim_pid_start: string | null;
  outcome: string | null;
}

const toRecord = (row: Row): CheckpointRecord => ({
  sessionId: row.session_id,
  resumeId: row.resume_id,
  agentName: row.agent_name,
  reason: row.reason,
  message: row.message,
  options: JSON.parse(row.options) as string[],
  status: row.status,
  answer: row.answer === null ? null : (JSON.parse(row.answer) as { value: JsonValue }).value,
  answeredBy: row.answered_by,
  answeredAt: row.answered_at,
  createdAt: row.created_at,
  attempts: row.attempts,
  claimant:
    row.claim_token === null
      ? null
      : { token: row.claim_token, pid: row.claim_pid!, host: row.claim_host!, ...(row.claim_pid_start ? { pid_start: row.claim_pid_start } : {}) },
  outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as ResumeOutcome),
});

export interface CheckpointStoreOptions {
  /** Records raise, answer and resume in the audit ledger, each in the same transaction as the change. */
  ledger?: Ledger;
  now?: () => number;
  /** Hears each journal step right after it committed. */
  onStep?: (step: CheckpointStep, ref: CheckpointRef) => void;
  /**
   * Applied to an answer before it is stored (the vault's scrubber): free text may hold a pasted token, and secrets
   * never reach SQLite. The agent is resumed with the stored answer, so every resume sees the same input.
   */
  scrub?: (answer: JsonValue) => JsonValue;
}

/**
 * The durable side of checkpoints (table host_checkpoints): each checkpoint an agent raised, the user's answer, and
 * the journal of its resume. Pending checkpoints live in SQLite, so they survive a host restart; an answer is
 * committed with synchronous=FULL (on disk, not just in the WAL's page cache) before `answer` returns; the state
 * machine moves only forward, each move a conditional UPDATE, so of many concurrent callers exactly one wins each
 * move (see CheckpointResumer for how that makes a resume run once). Works across processes sharing the database.
 */
export class CheckpointStore {
  private readonly now: () => number;
  private readonly select;
  private readonly changed = new Emitter<CheckpointChange>();
  /** Fires after a new checkpoint or an accepted answer committed (not for repeats): the dialog opens and closes on it. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly db: Database,
    private readonly options: CheckpointStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.select = db.prepare<[string, string], Row>('SELECT * FROM host_checkpoints WHERE session_id = ? AND resume_id = ?');
  }

  get(ref: CheckpointRef): CheckpointRecord | null {
    const row = this.select.get(ref.sessionId, ref.resumeId);
    return row ? toRecord(row) : null;
  }

  /** Checkpoints waiting for the user (oldest first), of one session or all. */
  pending(sessionId?: string): CheckpointRecord[] {
    const rows =
      sessionId === undefined
        ? this.db.prepare<[], Row>("SELECT * FROM host_checkpoints WHERE status = 'pending' ORDER BY created_at, resume_id").all()
        : this.db.prepare<[string], Row>("SELECT * FROM host_checkpoints WHERE status = 'pending' AND session_id = ? ORDER BY created_at, resume_id").all(sessionId);
    return rows.map(toRecord);
  }

  /** Answered checkpoints whose resume has not finished (at a host start: the ones a crash interrupted). */
  unfinished(): CheckpointRecord[] {
    return this.db.prepare<[], Row>("SELECT * FROM host_checkpoints WHERE status IN ('answered', 'resuming') ORDER BY answered_at").all().map(toRecord);
  }

  /**
   * Records a checkpoint an agent raised (the signal already validated). Raising the same resume_id with the same
   * question again (the agent re-run after a restart) returns the existing record in whatever state it is; the same
   * resume_id for a different question is refused.
   */
  raise(sessionId: string, signal: CheckpointSignal, agentName: string | null = null): CheckpointRecord {
    const ref = { sessionId, resumeId: signal.resume_id };
    const options = JSON.stringify(signal.options);
    const inserted = this.write(false, () => {
      const result = this.db
        .prepare(
          `INSERT INTO host_checkpoints (session_id, resume_id, agent_name, reason, message, options, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING`,
        )
        .run(sessionId, signal.resume_id, agentName, signal.reason, signal.message, options, this.now());
      if (result.changes === 1) {
        this.options.ledger?.append({
          type: 'checkpoint.raised',
          actor: agentName ? `agent:${agentName}` : 'host',
          sessionId,
          payload: { resume_id: signal.resume_id, reason: signal.reason, message: signal.message, options: signal.options },
        });
      }
      return result.changes === 1;
    });
    const record = this.get(ref)!;
    if (!inserted && (record.reason !== signal.reason || record.message !== signal.message || JSON.stringify(record.options) !== options)) {
      throw new CheckpointConflictError(ref);
    }
    if (inserted) this.changed.fire({ kind: 'raised', record });
    return record;
  }

  /**
   * Stores the user's answer durably, then returns. Only the first answer counts: a second one (double click,
   * another window) changes nothing and gets the stored record back with `accepted: false`.
   */
  answer(ref: CheckpointRef, input: JsonValue, by = 'user'): { record: CheckpointRecord; accepted: boolean } {
    const current = this.get(ref);
    if (!current) throw new CheckpointNotFoundError(ref);
    if (input === undefined) throw new CheckpointAnswerError(ref, 'there is no answer (send the option chosen, or the text typed)');
    if (current.reason === 'decision_required' && current.options.length > 0 && (typeof input !== 'string' || !current.options.includes(input))) {
      throw new CheckpointAnswerError(ref, `${JSON.stringify(input)} is not one of its options: ${current.options.map((o) => JSON.stringify(o)).join(', ')}`);
    }
    const stored = this.options.scrub ? this.options.scrub(input) : input;
    const accepted = this.write(true, () => {
      const changed =
        this.db
          .prepare(
            "UPDATE host_checkpoints SET status = 'answered', answer = ?, answered_by = ?, answered_at = ? WHERE session_id = ? AND resume_id = ? AND status = 'pending'",
          )
          .run(JSON.stringify({ value: stored }), by, this.now(), ref.sessionId, ref.resumeId).changes === 1;
      if (changed) {
        this.options.ledger?.append({ type: 'checkpoint.answer', actor: by, sessionId: ref.sessionId, payload: { resume_id: ref.resumeId, answer: stored } });
      }
      return changed;
    });
    if (accepted) this.options.onStep?.('answer_stored', ref);
    const record = this.get(ref)!;
    if (accepted) this.changed.fire({ kind: 'answered', record });
    return { record, accepted };
  }

  /**
   * Takes the right to run the resume: from "answered", or from a claimant that is gone (`staleToken`). Exactly one
   * of any number of concurrent callers gets a token back; the others get null.
   */
  claim(ref: CheckpointRef, staleToken: string | null = null): string | null {
    const token = randomBytes(12).toString('hex');
    const me = currentProcess();
    const won = this.write(false, () => {
      const result = this.db
        .prepare(
          `UPDATE host_checkpoints SET status = 'resuming', claim_token = ?, claim_pid = ?, claim_host = ?, claim_pid_start = ?, claimed_at = ?, attempts = attempts + 1
           WHERE session_id = ? AND resume_id = ? AND ${staleToken === null ? "status = 'answered'" : "status = 'resuming' AND claim_token = ?"}`,
        )
        .run(token, me.pid, me.host, me.pid_start ?? null, this.now(), ref.sessionId, ref.resumeId, ...(staleToken === null ? [] : [staleToken]));
      return result.changes === 1;
    });
    if (won) this.options.onStep?.('resume_claimed', ref);
    return won ? token : null;
  }

  /** Journals the resume's outcome if `token` still holds the claim; returns the outcome stored (ours or the winner's). */
  complete(ref: CheckpointRef, token: string, outcome: ResumeOutcome): ResumeOutcome {
    this.write(false, () => {
      const changed =
        this.db
          .prepare("UPDATE host_checkpoints SET status = 'resumed', outcome = ?, resumed_at = ? WHERE session_id = ? AND resume_id = ? AND status = 'resuming' AND claim_token = ?")
          .run(JSON.stringify(outcome), this.now(), ref.sessionId, ref.resumeId, token).changes === 1;
      if (changed) {
        this.options.ledger?.append({ type: 'checkpoint.resumed', actor: 'host', sessionId: ref.sessionId, payload: { resume_id: ref.resumeId, ok: outcome.ok } });
      }
    });
    this.options.onStep?.('resume_journaled', ref);
    return this.get(ref)!.outcome!;
  }

  /** One write transaction (with its ledger entries when there is a ledger); `durable` waits for the disk. */
  private write<T>(durable: boolean, work: () => T): T {
    const before = durable ? (this.db.pragma('synchronous', { simple: true }) as number) : undefined;
    if (durable) this.db.pragma('synchronous = FULL');
    try {
      return this.options.ledger ? this.options.ledger.transact(work) : this.db.transaction(work).immediate();
    } finally {
      if (before !== undefined) this.db.pragma(`synchronous = ${before}`);
    }
  }
}
