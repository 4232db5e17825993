import type { SessionService } from '../sessions/sessionService';
import type { TerminalService } from '../terminals/terminalService';
import type { SessionState } from './sessionState';

/** The state replaySession rebuilds, read from the running services instead of the log. */
export function liveSessionState(sessions: SessionService, terminals: TerminalService, sessionId: string): SessionState {
  return {
    session: sessions.get(sessionId),
    terminals: terminals.views(sessionId).map(({ terminal, signal, scrollback }) => ({ terminal, signal, scrollback })),
  };
}
