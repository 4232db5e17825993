import { Emitter, type Disposable } from '../../../../src-preload/rpc';
import type { EventLog } from '../../eventlog/eventLog';
import { EventKind } from '../../eventlog/eventKinds';

export const PROGRESS_LEVELS = ['info', 'warn', 'error'] as const;
export type ProgressLevel = (typeof PROGRESS_LEVELS)[number];

export interface ProgressEntry {
  sessionId: string;
  ts: number;
  level: ProgressLevel;
  message: string;
}

export class ProgressLevelError extends Error {
  constructor(readonly level: unknown) {
    super(`log_progress level ${JSON.stringify(level)} is not one of ${PROGRESS_LEVELS.join(', ')}`);
    this.name = 'ProgressLevelError';
  }
}

/** Messages longer than this are cut (with a marker): a progress line is for a person to read. */
const MAX_MESSAGE_CHARS = 4000;

export interface ProgressLogOptions {
  /** Where entries are kept per session (kind host.progress); without it they only stream. */
  events?: EventLog;
  /** The vault's scrubber: a message can quote a token, and secrets never reach the UI, the log or the disk. */
  scrub?: (text: string) => string;
  now?: () => number;
}

/**
 * log_progress(message, level) of the host protocol: a user-visible progress stream (onDidLog, for the contract's
 * progress stream and the progress log view) that is also kept in the session's event log.
 */
export class ProgressLog implements Disposable {
  private readonly logged = new Emitter<ProgressEntry>();
  readonly onDidLog = this.logged.event;

  constructor(private readonly options: ProgressLogOptions = {}) {}

  log(sessionId: string, message: string, level: ProgressLevel = 'info'): ProgressEntry {
    if (!PROGRESS_LEVELS.includes(level)) throw new ProgressLevelError(level);
    if (typeof message !== 'string') throw new TypeError(`log_progress message must be a string, got ${typeof message}`);
    const scrubbed = this.options.scrub ? this.options.scrub(message) : message;
    const text = scrubbed.length > MAX_MESSAGE_CHARS ? `${scrubbed.slice(0, MAX_MESSAGE_CHARS)}… [${scrubbed.length - MAX_MESSAGE_CHARS} more characters]` : scrubbed;
    const entry: ProgressEntry = { sessionId, ts: (this.options.now ?? Date.now)(), level, message: text };
    this.options.events?.append({ sessionId, kind: EventKind.hostProgress, payload: { level, message: text } });
    this.logged.fire(entry);
    return entry;
  }

  dispose(): void {
    this.logged.dispose();
  }
}
