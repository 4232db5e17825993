import { RpcError, type Terminal } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';
import { useTerminals } from './terminalsStore';

/** A first guess at the size; the card fits itself to its box right after it mounts and tells the host. */
const INITIAL_COLS = 100;
const INITIAL_ROWS = 30;

export async function openTerminal(client: OmniClient, sessionId: string): Promise<Terminal> {
  const terminal = await client.call('terminal.open', { sessionId, cols: INITIAL_COLS, rows: INITIAL_ROWS });
  useTerminals.getState().add(terminal);
  useTerminals.getState().requestFocus(terminal.id);
  return terminal;
}

/** Closes the card; the host kills the shell's whole process group. A terminal the host already forgot is gone too. */
export async function closeTerminal(client: OmniClient, id: string): Promise<void> {
  try {
    await client.call('terminal.close', { id });
  } catch (error) {
    if (!(error instanceof RpcError && error.code === 'NOT_FOUND')) throw error;
  }
  useTerminals.getState().remove(id);
}
