import type { LedgerVerdict } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useLedgerVerify, verifyLedger } from './verifyStore';

/** The CLI's verdict sentence, with the head hash shortened (the full hash is in the tooltip). */
function describe(verdict: LedgerVerdict): string {
  if (!verdict.intact) {
    if (verdict.changed) return `Not intact: changed within entries ${verdict.changed.from}-${verdict.changed.to}: ${verdict.reason}`;
    return `Not intact: entry ${verdict.firstBadSeq} is the first bad one: ${verdict.reason}`;
  }
  if (!verdict.checkpoint) return `Chain consistent, unsigned: ${verdict.size} entries, head ${verdict.headHash.slice(0, 16)}…; no signed checkpoint, so this proves nothing about who wrote it`;
  return `Intact: ${verdict.size} entries, head ${verdict.headHash.slice(0, 16)}…, last signed checkpoint at seq ${verdict.checkpoint.seq}`;
}

/**
 * "Verify": re-checks the whole ledger on the host (hash chain, payload commitments, signed checkpoints against the
 * keychain's key) and says intact, or which entry is the first bad one and why.
 */
export function VerifyLedger() {
  const client = useConnection((s) => s.client);
  const state = useLedgerVerify((s) => s.state);

  const text = state.kind === 'done' ? describe(state.verdict) : state.kind === 'failed' ? `Verify failed: ${state.message}` : '';
  const tone = state.kind === 'done' && state.verdict.intact ? (state.verdict.checkpoint ? 'verdict-ok' : 'verdict-unsigned') : 'verdict-bad';
  return (
    <div className="ledger-verify">
      <button
        type="button"
        className="secondary"
        disabled={!client || state.kind === 'running'}
        aria-busy={state.kind === 'running' || undefined}
        onClick={() => client && void verifyLedger(client)}
        data-testid="ledger-verify"
      >
        Verify
      </button>
      {text && (
        <span className={tone} role="status" data-testid="ledger-verify-result" title={state.kind === 'done' && state.verdict.intact ? state.verdict.headHash : undefined}>
          {text}
        </span>
      )}
      {state.kind === 'done' && state.verdict.intact && state.verdict.notes.length > 0 && (
        <ul className="ledger-verify-notes" data-testid="ledger-verify-notes">
          {state.verdict.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
