import { create } from 'zustand';
import type { LedgerVerdict } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

export type VerifyState = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; verdict: LedgerVerdict } | { kind: 'failed'; message: string };

/**
 * The ledger's last verification, in a store rather than the Verify button's own state: the command palette runs the
 * same check, and its verdict shows in the same place as the button's.
 */
export const useLedgerVerify = create<{ state: VerifyState }>(() => ({ state: { kind: 'idle' } }));

/** Re-checks the whole ledger on the host (hash chain, payload commitments, signed checkpoints). A check already running is not started twice. */
export async function verifyLedger(client: OmniClient): Promise<void> {
  if (useLedgerVerify.getState().state.kind === 'running') return;
  useLedgerVerify.setState({ state: { kind: 'running' } });
  try {
    useLedgerVerify.setState({ state: { kind: 'done', verdict: await client.call('ledger.verify', {}) } });
  } catch (error) {
    useLedgerVerify.setState({ state: { kind: 'failed', message: errorMessage(error) } });
  }
}
