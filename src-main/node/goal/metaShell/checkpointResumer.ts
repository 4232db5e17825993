import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckpointRecord, CheckpointRef, CheckpointStore, ResumeOutcome } from './checkpointStore';
import { CheckpointNotFoundError } from './checkpointStore';
import { isProcessGone } from './processIdentity';
import type { JsonValue } from './sessionState';
import { DomainError } from '../../base/domainError';

/** What the resume function is given: the stored answer, and the key its side effects must be keyed by. */
export interface ResumeContext {
  ref: CheckpointRef;
  /** The user's answer as stored: spawn_agent's resume_data.user_input. */
  answer: JsonValue;
  /**
   * `${sessionId}/${resumeId}`: pass it to every side effect the resume causes, and make each effect record it in the
   * same transaction as the effect itself (see below). Stable across attempts.
   */
  idempotencyKey: string;
  /** 1 for the first run; more when an earlier run was cut short by a crash and this one takes over. */
  attempt: number;
}

export type ResumeFunction = (context: ResumeContext) => Promise<JsonValue>;

export class CheckpointNotAnsweredError extends DomainError {
  constructor(readonly ref: CheckpointRef) {
    super('state', `checkpoint "${ref.resumeId}" has not been answered yet: answer it before resuming`);
    this.name = 'CheckpointNotAnsweredError';
  }
}

/**
 * Runs a checkpoint's resume once, however many callers ask (a double click, two windows, two processes, a host that
 * restarts after a crash), and gives every caller the same outcome.
 *
 * What is guaranteed, and what is not:
 * - At most one resume runs at any moment: the right to run is a conditional UPDATE (answered → resuming) that exactly
 *   one caller wins; the others wait for the outcome stored in the journal (resuming → resumed) and return it.
 * - A resume that finished is never run again: its outcome is stored, and later callers read it.
 * - A resume whose process died (SIGKILL, a crash, a power cut) is taken over, by the next caller or by the restarted
 *   host (resumeUnfinished), once that process is known to be gone; the take-over is again a conditional UPDATE
 *   (on the dead claimant's token), so only one caller takes over.
 * - The one window the journal alone cannot close: a resume that completed its side effect and died before the
 *   journal recorded it. Taking over runs the resume function again (attempt 2). Exactly-once for that effect
 *   therefore needs the effect to be keyed: the effect records `idempotencyKey` atomically with itself (same
 *   transaction, a unique key) and, seeing the key already recorded, returns what it returned the first time
 *   instead of acting again. A resume whose effects are not keyed is at-least-once across a crash at that point,
 *   and exactly-once everywhere else.
 */
export class CheckpointResumer {
  constructor(
    private readonly store: CheckpointStore,
    private readonly options: { pollMs?: number } = {},
  ) {}

  async resumeOnce(ref: CheckpointRef, run: ResumeFunction): Promise<ResumeOutcome> {
    const pollMs = this.options.pollMs ?? 20;
    for (;;) {
      const record = this.store.get(ref);
      if (!record) throw new CheckpointNotFoundError(ref);
      if (record.status === 'resumed') return record.outcome!;
      if (record.status === 'pending') throw new CheckpointNotAnsweredError(ref);
      const stale = record.status === 'resuming' && record.claimant && isProcessGone(record.claimant) ? record.claimant.token : null;
      if (record.status === 'answered' || stale) {
        const token = this.store.claim(ref, stale);
        if (token) return this.runClaimed(ref, token, run);
        continue; // someone else won the claim: look again
      }
      await sleep(pollMs);
    }
  }

  /** At a host start: finishes every resume a crash interrupted (answered, or claimed by a process now gone). */
  async resumeUnfinished(runFor: (record: CheckpointRecord) => ResumeFunction): Promise<Map<string, ResumeOutcome>> {
    const outcomes = new Map<string, ResumeOutcome>();
    for (const record of this.store.unfinished()) {
      if (record.status === 'resuming' && record.claimant && !isProcessGone(record.claimant)) continue; // still running elsewhere
      outcomes.set(`${record.sessionId}/${record.resumeId}`, await this.resumeOnce(record, runFor(record)));
    }
    return outcomes;
  }

  private async runClaimed(ref: CheckpointRef, token: string, run: ResumeFunction): Promise<ResumeOutcome> {
    const record = this.store.get(ref)!;
    let outcome: ResumeOutcome;
    try {
      const value = await run({ ref: { sessionId: ref.sessionId, resumeId: ref.resumeId }, answer: record.answer!, idempotencyKey: `${ref.sessionId}/${ref.resumeId}`, attempt: record.attempts });
      outcome = { ok: true, value: value === undefined ? null : value };
    } catch (error) {
      // A failed resume is an outcome too: stored, so a second click gets the same error instead of a second run.
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    return this.store.complete(ref, token, outcome);
  }
}
