/** What the event log's writer thread and the host say to each other (eventRowWriter.ts, eventLogWriterWorker.ts). */

/**
 * One event_log row as the writer receives it: output not scrubbed yet, as text or as the UTF-8 bytes a pty gave
 * (valid UTF-8; see storedData).
 */
export interface EventRow {
  sessionId: string;
  seq: number;
  ts: number;
  kind: string;
  subject: string | null;
  payload: string | null;
  data: string | Uint8Array | null;
  /** The UTF-16 length of `data` (or of `payload` when there is no data): what the writer's backlog counts. */
  chars: number;
}

export interface WriterSetup {
  file: string;
  /** Int32Array cell: the id of the last batch the writer finished (committed, or gave up and reported). */
  done: SharedArrayBuffer;
  /** Bytes written since the last checkpoint that make the writer checkpoint without waiting for a lull. */
  checkpointAfterBytes: number;
}

export interface WriterBatch {
  id: number;
  rows?: EventRow[];
  /** The registered secret values, sent when they changed: the writer scrubs output of them before storing it. */
  secrets?: readonly string[];
  /** The last batch: close the connection once it is done. */
  close?: true;
}

/** Sent back when a batch could not be written even after retries (its rows are lost); the host parses it. */
export type { WriterFailure } from './writerFailure';

export const INSERT_EVENT_ROW =
  'INSERT INTO event_log (session_id, seq, ts, kind, subject, payload, data, data_chars) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
