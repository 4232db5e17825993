import type { AgentRunEvent, AgentRunInfo } from '../../../../src-preload/contract/agents';
import type { Disposable } from '../../../../src-preload/rpc';
import { EventKind } from '../../eventlog/eventKinds';
import { EventLogClosedError, type EventLog } from '../../eventlog/eventLog';
import type { JsonValue } from '../../eventlog/loggedEvent';
import type { Database } from '../../store/database';
import type { SecretScrubber } from '../../vault/secretScrubber';
import type { AgentRun } from './agentRun';

type OutputEvent = Extract<AgentRunEvent, { kind: 'output' }>;
/** What an output card is, logged once before its first chunk (its chunks are `agent.output` rows). */
type CardHeader = Omit<OutputEvent, 'data'> & { data?: undefined };

/** A run as the log holds it: its latest record and its events, oldest first (`ended` last when it has ended). */
export interface LoggedRun {
  info: AgentRunInfo;
  events: AgentRunEvent[];
}

interface Row {
  seq: number;
  kind: string;
  subject: string;
  payload: string | null;
  data: Buffer | null;
}

const outputSubject = (runId: string, cardId: string): string => `${runId}#${cardId}`;

/**
 * Agent runs in their session's event log, so a card comes back whole after the host restarts or crashes (issue 23,
 * item 11), under the log's retention like a terminal's output:
 * - `agent.run` (subject: run id): the run's record, when it starts and when it ends; both written durably.
 * - `agent.output` (subject: "<run id>#<card id>", data): output text, which the log's writer scrubs of secrets and
 *   joins into rows; each card's kind comes first as an `agent.event` header. An image chunk is a whole frame that
 *   replaces the last, so each gets a row of its own.
 * - `agent.event` (subject: run id): every other event (state, error, artifact, state_update, denied), its payload
 *   scrubbed here (the writer scrubs only output data).
 * A host killed mid-run leaves the run open in the log: closeLost() ends it as `interrupted` at the next start.
 */
export class AgentRunLog {
  private readonly sessionOf;
  private readonly openRuns;
  private readonly records;
  private readonly rowsOf;

  constructor(
    private readonly db: Database,
    private readonly log: EventLog,
    private readonly scrubber: SecretScrubber,
  ) {
    this.sessionOf = db.prepare<[string, string], { session_id: string; seq: number }>('SELECT session_id, min(seq) AS seq FROM event_log WHERE kind = ? AND subject = ? AND data IS NULL GROUP BY session_id');
    this.records = db.prepare<[string, string], { subject: string; payload: string }>('SELECT subject, payload FROM event_log WHERE session_id = ? AND kind = ? AND data IS NULL ORDER BY seq');
    this.openRuns = db.prepare<[string], { subject: string; payload: string }>(
      `SELECT r.subject, r.payload FROM event_log r
        WHERE r.kind = ? AND r.data IS NULL
          AND r.seq = (SELECT max(l.seq) FROM event_log l WHERE l.session_id = r.session_id AND l.kind = r.kind AND l.subject = r.subject AND l.data IS NULL)`,
    );
    this.rowsOf = db.prepare<[string, number, string, string, string, string, number, string], Row>(
      `SELECT seq, kind, subject, payload, data FROM event_log
        WHERE session_id = ? AND seq >= ?
          AND ((kind IN (?, ?) AND subject = ?) OR (kind = ? AND substr(subject, 1, ?) = ?))
        ORDER BY seq`,
    );
  }

  /** Logs the run from now on: its record at once, every event it pushes, its final record when it ends. */
  record(run: AgentRun): Disposable {
    const { sessionId, id } = run.info;
    const cards = new Set<string>();
    this.appendRecord(run.info);
    return run.onDidAppend((event) => {
      try {
        this.append(sessionId, id, cards, event);
      } catch (error) {
        // A run ending after the log closed (the host stopping): it stays open in the log, and the next host's
        // closeLost() says it was interrupted, which is what happened.
        if (!(error instanceof EventLogClosedError)) throw error;
      }
    });
  }

  private append(sessionId: string, id: string, cards: Set<string>, event: AgentRunEvent): void {
    {
      if (event.kind === 'ended') {
        this.appendRecord(event.run);
        return;
      }
      if (event.kind !== 'output') {
        this.log.append({ sessionId, kind: EventKind.agentEvent, subject: id, payload: this.scrubbed(event) });
        return;
      }
      if (!cards.has(event.cardId)) {
        cards.add(event.cardId);
        const header: CardHeader = { kind: 'output', cardId: event.cardId, cardKind: event.cardKind, contentType: event.contentType, language: event.language };
        this.log.append({ sessionId, kind: EventKind.agentEvent, subject: id, payload: this.scrubbed(header) });
      }
      // A frame must not be joined to the one before it: cut the session's growing row first.
      if (event.cardKind === 'image') this.log.cut(sessionId);
      this.log.append({ sessionId, kind: EventKind.agentOutput, subject: outputSubject(id, event.cardId), data: event.data });
      if (event.cardKind === 'image') this.log.cut(sessionId);
    }
  }

  /** The latest record of every logged run of the session, oldest run first. */
  runsOf(sessionId: string): AgentRunInfo[] {
    this.log.settle();
    const latest = new Map<string, AgentRunInfo>();
    for (const row of this.records.all(sessionId, EventKind.agentRun)) latest.set(row.subject, JSON.parse(row.payload) as AgentRunInfo);
    return [...latest.values()];
  }

  /** The run rebuilt from the log, or undefined when the log does not know it (or retention removed its record). */
  load(runId: string): LoggedRun | undefined {
    this.log.settle();
    const found = this.sessionOf.get(EventKind.agentRun, runId);
    if (!found) return undefined;
    const prefix = `${runId}#`;
    const rows = this.rowsOf.all(found.session_id, found.seq, EventKind.agentRun, EventKind.agentEvent, runId, EventKind.agentOutput, prefix.length, prefix);
    const headers = new Map<string, CardHeader>();
    const events: AgentRunEvent[] = [];
    let info: AgentRunInfo | undefined;
    for (const row of rows) {
      if (row.kind === EventKind.agentRun) {
        info = JSON.parse(row.payload!) as AgentRunInfo;
      } else if (row.kind === EventKind.agentEvent) {
        const event = JSON.parse(row.payload!) as AgentRunEvent | CardHeader;
        if (event.kind === 'output') headers.set(event.cardId, event as CardHeader);
        else events.push(event);
      } else if (row.data !== null) {
        const header = headers.get(row.subject.slice(prefix.length));
        // Retention never drops a header (it keeps every event that is not output), so a header is always found.
        if (header) events.push({ ...header, data: row.data.toString('utf8') });
      }
    }
    if (!info) return undefined;
    if (info.endedAt !== null) events.push({ kind: 'ended', run: info });
    return { info, events };
  }

  /**
   * Runs a host that crashed or was killed left open in the log: each is ended there as `interrupted`, so a restarted
   * host lists it as over and its card says why. Returns how many.
   */
  closeLost(now: number): number {
    this.log.settle();
    let closed = 0;
    for (const row of this.openRuns.all(EventKind.agentRun)) {
      const info = JSON.parse(row.payload) as AgentRunInfo;
      if (info.endedAt !== null) continue;
      const error = { code: 'interrupted', message: 'the host stopped while this run was going (a crash, a kill or a power cut); what it did until then is kept', hint: 'start the agent again to finish the work' };
      this.log.append({ sessionId: info.sessionId, kind: EventKind.agentEvent, subject: info.id, payload: { kind: 'state', state: 'Terminated', cause: 'host_lost', detail: error.message } });
      this.log.append({ sessionId: info.sessionId, kind: EventKind.agentEvent, subject: info.id, payload: { kind: 'error', ...error } });
      this.appendRecord({ ...info, state: 'Terminated', outcome: 'interrupted', endedAt: now, error });
      closed++;
    }
    return closed;
  }

  private appendRecord(info: AgentRunInfo): void {
    this.log.append({ sessionId: info.sessionId, kind: EventKind.agentRun, subject: info.id, payload: this.scrubbed(info) }, { durable: true });
  }

  /** Secrets out of a payload (registered values, token shapes), and plain JSON (a state_update's value is unknown). */
  private scrubbed(value: object): JsonValue {
    return JSON.parse(JSON.stringify(this.scrubber.scrubPayload(value as Record<string, unknown>))) as JsonValue;
  }
}
