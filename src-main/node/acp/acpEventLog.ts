import type { AcpConversation, AcpEntry } from '../../../src-preload/contract/acp';
import type { EventLog } from '../eventlog/eventLog';
import { EventKind } from '../eventlog/eventKinds';
import type { JsonValue } from '../eventlog/loggedEvent';
import type { Database } from '../store/database';

type EntryType = AcpEntry['type'];

/**
 * ACP conversations in the session's event log (kind `acp.event`, subject the conversation id, payload
 * `{ type, data }`): the user's prompts, every session/update as the agent sent it, turn ends, errors, notices, and
 * the conversation's record after each change (`status`). It is the conversation's only store: a restarted host
 * lists conversations and shows their history from here, without asking the agent.
 */
export class AcpEventLog {
  private readonly sessionOf;
  private readonly statuses;
  private readonly entriesOf;
  /** conversation id → session id, as appended or looked up (the lookup scans the log by kind and subject). */
  private readonly sessions = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly log: EventLog,
  ) {
    this.sessionOf = db.prepare<[string, string], { session_id: string }>('SELECT session_id FROM event_log WHERE kind = ? AND subject = ? LIMIT 1');
    this.statuses = db.prepare<[string, string], { subject: string; payload: string }>(
      "SELECT subject, payload FROM event_log WHERE session_id = ? AND kind = ? AND json_extract(payload, '$.type') = 'status' ORDER BY seq",
    );
    this.entriesOf = db.prepare<[string, string, string, number], { seq: number; ts: number; payload: string }>(
      'SELECT seq, ts, payload FROM event_log WHERE session_id = ? AND kind = ? AND subject = ? AND seq > ? ORDER BY seq',
    );
  }

  /**
   * Appends an entry; state changes (status) and prompts are written durably unless `options.durable` says otherwise
   * (a durable append right after commits it too). Returns the entry as acp.updates sends it.
   */
  append(conversation: { id: string; sessionId: string }, type: EntryType, data: unknown, options: { durable?: boolean } = {}): AcpEntry {
    this.sessions.set(conversation.id, conversation.sessionId);
    const payload = { type, data: (data ?? null) as JsonValue };
    const durable = options.durable ?? (type === 'status' || type === 'prompt');
    const seq = this.log.append({ sessionId: conversation.sessionId, kind: EventKind.acpEvent, subject: conversation.id, payload }, { durable });
    return { seq, ts: Date.now(), conversationId: conversation.id, type, data: payload.data };
  }

  /** Resolves once every entry appended so far is committed (the host's thread goes on meanwhile). */
  committed(): Promise<void> {
    return this.log.committed();
  }

  /** The session a conversation belongs to, or undefined for an unknown id. */
  sessionIdOf(conversationId: string): string | undefined {
    const known = this.sessions.get(conversationId);
    if (known !== undefined) return known;
    this.log.settle();
    const found = this.sessionOf.get(EventKind.acpEvent, conversationId)?.session_id;
    if (found !== undefined) this.sessions.set(conversationId, found);
    return found;
  }

  /** The latest record of each conversation of a session, oldest conversation first. */
  conversations(sessionId: string): AcpConversation[] {
    this.log.settle();
    const latest = new Map<string, AcpConversation>();
    for (const row of this.statuses.all(sessionId, EventKind.acpEvent)) latest.set(row.subject, (JSON.parse(row.payload) as { data: AcpConversation }).data);
    return [...latest.values()];
  }

  /** A conversation's entries after `sinceSeq`. */
  entries(sessionId: string, conversationId: string, sinceSeq: number): AcpEntry[] {
    this.log.settle();
    return this.entriesOf.all(sessionId, EventKind.acpEvent, conversationId, sinceSeq).map((row) => {
      const { type, data } = JSON.parse(row.payload) as { type: EntryType; data: unknown };
      return { seq: row.seq, ts: row.ts, conversationId, type, data };
    });
  }
}
