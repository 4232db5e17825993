import type { Utf8Text } from '../../../src-preload/rpc';

/** Plain JSON, as a state event's payload must be. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What a service hands the event log. An event carries either a JSON `payload` (a state change) or `data` (a
 * chunk of output text, or its UTF-8 as a pty gave it): data events of one kind and subject that follow each other
 * in a session are one stream and may be stored as one row (see EventLog).
 */
export type EventAppend = {
  sessionId: string;
  kind: string;
  /** What the event is about inside its session: a terminal id, say. */
  subject?: string;
} & ({ payload: JsonValue; data?: undefined } | { data: string | Utf8Text; payload?: undefined });

/** One stored event, as replay reads it. `seq` counts 1, 2, 3… per session with no gaps (see DroppedEvents). */
export interface LoggedEvent {
  sessionId: string;
  seq: number;
  ts: number;
  kind: string;
  subject: string | null;
  payload: unknown;
  data: string | null;
}
