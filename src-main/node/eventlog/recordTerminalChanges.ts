import type { Disposable } from '../../../src-preload/rpc';
import type { TerminalChange } from '../terminals/terminalChange';
import type { TerminalService } from '../terminals/terminalService';
import { EventKind } from './eventKinds';
import type { EventAppend } from './loggedEvent';
import type { EventLog } from './eventLog';

function toEvent(change: TerminalChange): EventAppend {
  switch (change.kind) {
    case 'opened':
      return { sessionId: change.terminal.sessionId, kind: EventKind.terminalOpened, subject: change.terminal.id, payload: { ...change.terminal } };
    case 'output':
      return { sessionId: change.sessionId, kind: EventKind.terminalOutput, subject: change.terminalId, data: change.data };
    case 'resized':
      return { sessionId: change.sessionId, kind: EventKind.terminalResized, subject: change.terminalId, payload: { cols: change.cols, rows: change.rows } };
    case 'exited':
      return {
        sessionId: change.sessionId,
        kind: EventKind.terminalExited,
        subject: change.terminalId,
        payload: { exitCode: change.exitCode, signal: change.signal },
      };
    case 'closed':
      return { sessionId: change.sessionId, kind: EventKind.terminalClosed, subject: change.terminalId, payload: { reason: change.reason } };
  }
}

/** Logs what every terminal does; output is batched (see EventLog), the rest follows it in the same batches. */
export function recordTerminalChanges(log: EventLog, terminals: TerminalService): Disposable {
  return terminals.onDidChange((change) => log.append(toEvent(change)));
}
