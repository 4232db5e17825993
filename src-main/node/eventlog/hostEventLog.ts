import { DisposableStore, type Disposable } from '../../../src-preload/rpc';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { TerminalService } from '../terminals/terminalService';
import { closeLostTerminals } from './closeLostTerminals';
import { EventLog, type EventLogOptions } from './eventLog';
import { liveSessionState } from './liveSessionState';
import { recordSessionChanges } from './recordSessionChanges';
import { recordTerminalChanges } from './recordTerminalChanges';
import { replaySession } from './replaySession';
import { EventLogRetention, type RetentionOptions } from './retention';
import type { SessionState } from './sessionState';

export interface HostEventLogOptions {
  log?: EventLogOptions;
  retention?: RetentionOptions;
}

/**
 * The event log as the host runs it: records what the session and terminal services do, closes in the log the
 * terminals a crashed host left open, keeps retention running, and answers "what does this session look like",
 * both from the running services and rebuilt from the log.
 */
export class HostEventLog implements Disposable {
  readonly log: EventLog;
  readonly retention: EventLogRetention;
  private readonly owner = new DisposableStore();

  constructor(
    db: Database,
    private readonly sessions: SessionService,
    private readonly terminals: TerminalService,
    options: HostEventLogOptions = {},
  ) {
    this.log = this.owner.add(new EventLog(db, options.log));
    closeLostTerminals(db, this.log);
    this.owner.add(recordSessionChanges(this.log, sessions));
    this.owner.add(recordTerminalChanges(this.log, terminals));
    this.retention = this.owner.add(new EventLogRetention(db, this.log, options.retention));
    this.retention.start();
  }

  /**
   * The session as the running services show it, and the seq to replay through to rebuild exactly that (read in
   * one synchronous step, so no output can fall between the two).
   */
  live(sessionId: string): { state: SessionState; seq: number } {
    return { state: liveSessionState(this.sessions, this.terminals, sessionId), seq: this.log.cut(sessionId) };
  }

  /** The session rebuilt from its logged events (through `throughSeq`, or all of them). */
  replay(sessionId: string, throughSeq?: number): SessionState {
    return replaySession(sessionId, this.log.events(sessionId, { throughSeq }));
  }

  /** Stops recording and writes what is pending. The terminal service's own dispose should come first. */
  dispose(): void {
    this.owner.dispose();
  }
}
