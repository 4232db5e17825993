import type { terminalContract } from '../../../src-preload/contract/terminals';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import { createTerminalHandlers } from './terminalHandlers';
import { TerminalService } from './terminalService';

export interface TerminalsDeps {
  sessions: SessionService;
  ledger: Ledger;
  actor: string;
}

/** Terminal cards: a PTY each, closed with their session and with the host. */
export function composeTerminals({ sessions, ledger, actor }: TerminalsDeps): AreaComposition<TerminalService, Handlers<typeof terminalContract>> {
  const terminals = new TerminalService(sessions, ledger);
  const closing = sessions.onDidClose(async ({ sessionId, actor: closedBy }) => {
    await Promise.all(terminals.list(sessionId).map((terminal) => terminals.close(terminal.id, closedBy)));
  });
  const counting = sessions.registerRunning('terminals', (sessionId) => terminals.list(sessionId).filter((terminal) => terminal.status === 'running').length);
  return {
    service: terminals,
    handlers: createTerminalHandlers(terminals, sessions, actor),
    async dispose() {
      counting.dispose();
      closing.dispose();
      await terminals.dispose();
    },
  };
}
