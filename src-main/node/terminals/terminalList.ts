import type { Terminal } from '../../../src-preload/contract';
import type { LiveChange } from '../../../src-preload/rpc';
import type { TerminalListChange } from './terminalChange';
import type { TerminalService } from './terminalService';

/**
 * A terminal change as the session's terminal list (terminal.watch) sees it: opened, resized and exited terminals
 * as they now are, closed ones removed.
 */
export function terminalListChange(change: TerminalListChange, sessionId: string, terminals: Pick<TerminalService, 'list'>): LiveChange<Terminal> | undefined {
  if (change.kind === 'opened') return change.terminal.sessionId === sessionId ? { kind: 'upsert', item: change.terminal } : undefined;
  if (change.sessionId !== sessionId) return undefined;
  if (change.kind === 'closed') return { kind: 'remove', id: change.terminalId };
  const terminal = terminals.list(sessionId).find((t) => t.id === change.terminalId);
  return terminal && { kind: 'upsert', item: terminal };
}
