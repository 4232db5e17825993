import { terminalContract } from '../../../src-preload/contract/terminals';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { SessionService } from '../sessions/sessionService';
import { terminalListChange } from './terminalList';
import type { TerminalService } from './terminalService';

/** The `terminal.*` calls and streams: the session's terminal cards, their keys, sizes and output. */
export function createTerminalHandlers(terminals: TerminalService, sessions: SessionService, actor: string): Handlers<typeof terminalContract> {
  return {
    'terminal.open': ({ sessionId, cols, rows }) => terminals.open(sessionId, cols, rows, actor),
    'terminal.list': ({ sessionId }) => {
      // An unknown session is NOT_FOUND, not an empty list.
      sessions.get(sessionId);
      return terminals.list(sessionId);
    },
    'terminal.watch': liveListHandler(terminalContract['terminal.watch'], {
      list: ({ sessionId }) => {
        sessions.get(sessionId);
        return terminals.list(sessionId);
      },
      onDidChange: ({ sessionId }, emit) =>
        terminals.onDidChangeList((change) => {
          const listChange = terminalListChange(change, sessionId, terminals);
          if (listChange) emit(listChange);
        }),
    }),
    'terminal.input': ({ id, data }) => {
      terminals.input(id, data);
      return {};
    },
    'terminal.resize': ({ id, cols, rows }) => {
      terminals.resize(id, cols, rows);
      return {};
    },
    'terminal.close': async ({ id }) => {
      await terminals.close(id, actor);
      return {};
    },
    'terminal.output': ({ id }, sink) => terminals.attach(id, sink),
  };
}
