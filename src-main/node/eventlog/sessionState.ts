import type { Session, Terminal } from '../../../src-preload/contract';

/** A terminal as the user sees it: its record, how it exited, and the scrollback a reopened card replays. */
export interface TerminalState {
  terminal: Terminal;
  signal: number | null;
  scrollback: string;
}

/**
 * Everything a session shows, rebuilt from its events by replaySession or read from the running services by
 * liveSessionState; the two must agree byte for byte. Terminals are in the order they were opened.
 */
export interface SessionState {
  session: Session;
  terminals: TerminalState[];
}
