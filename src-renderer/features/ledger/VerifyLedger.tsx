import type { LedgerVerdict } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
// The last verification, shared by the toolbar's button, the banner across the view and the command palette.
import { useLedgerVerify as useVerify, verifyLedger, type VerifyState as State } from './verifyStore';

/** The CLI's verdict sentence, with the head hash shortened (the full hash is in the tooltip). */
function describe(verdict: LedgerVerdict): string {
  if (!verdict.intact) {
    if (verdict.changed) return `Not intact: changed within entries ${verdict.changed.from}-${verdict.changed.to}: ${verdict.reason}`;
    return `Not intact: entry ${verdict.firstBadSeq} is the first bad one: ${verdict.reason}`;
  }
  if (!verdict.checkpoint) return `Chain consistent, unsigned: ${verdict.size} entries, head ${verdict.headHash.slice(0, 16)}…; no signed checkpoint, so this proves nothing about who wrote it`;
  return `Intact: ${verdict.size} entries, head ${verdict.headHash.slice(0, 16)}…, last signed checkpoint at seq ${verdict.checkpoint.seq}`;
}

/** What the user can do about the verdict, or null when there is nothing to do. */
function advice(state: State): string | null {
  if (state.kind === 'failed') return 'Check that the host is running and try again; `omni ledger verify` checks the same ledger from a terminal.';
  if (state.kind !== 'done') return null;
  const { verdict } = state;
  if (!verdict.intact) {
    const from = verdict.changed ? verdict.changed.from : verdict.firstBadSeq;
    return (
      `Entries from ${from} on cannot be trusted. Keep this home as it is (copy the folder before anything else touches it), ` +
      'export the ledger for a reviewer, and if you restored a backup over this home, put the backup in a folder of its own.'
    );
  }
  if (!verdict.checkpoint) return 'Run the app where the OS keychain is unlocked: the host then signs checkpoints, and Verify can say who wrote the ledger.';
  return null;
}

/** "Verify": re-checks the whole ledger on the host (hash chain, payload commitments, signed checkpoints). */
export function VerifyLedger() {
  const client = useConnection((s) => s.client);
  const running = useVerify((s) => s.state.kind === 'running');

  return (
    <button type="button" className="secondary" disabled={!client || running} aria-busy={running || undefined} onClick={() => client && void verifyLedger(client)} data-testid="ledger-verify">
      {running ? 'Verifying…' : 'Verify'}
    </button>
  );
}

/**
 * The verdict as a banner across the view: intact (green), unsigned (grey), broken at entry N (red) with what to do.
 * Dismissible; a new Verify brings it back.
 */
export function VerifyBanner() {
  const state = useVerify((s) => s.state);
  if (state.kind !== 'done' && state.kind !== 'failed') return null;
  const text = state.kind === 'done' ? describe(state.verdict) : `Verify failed: ${state.message}`;
  const tone = state.kind === 'done' && state.verdict.intact ? (state.verdict.checkpoint ? 'ok' : 'unsigned') : 'bad';
  const todo = advice(state);
  const notes = state.kind === 'done' && state.verdict.intact ? state.verdict.notes : [];
  return (
    <div className={`ledger-verify-banner ${tone}`} role={tone === 'bad' ? 'alert' : 'status'} data-testid="ledger-verify-banner" data-verdict={tone}>
      <div className="ledger-verify-text">
        <strong className={`verdict-${tone}`} data-testid="ledger-verify-result" title={state.kind === 'done' && state.verdict.intact ? state.verdict.headHash : undefined}>
          {text}
        </strong>
        {todo && (
          <span className="ledger-verify-advice" data-testid="ledger-verify-advice">
            {todo}
          </span>
        )}
        {notes.length > 0 && (
          <ul className="ledger-verify-notes" data-testid="ledger-verify-notes">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss the verification result" title="Dismiss" onClick={() => useVerify.setState({ state: { kind: 'idle' } })} data-testid="ledger-verify-dismiss">
        ✕
      </button>
    </div>
  );
}
