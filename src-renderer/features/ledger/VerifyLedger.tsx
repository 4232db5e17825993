import { useState } from 'react';
import type { LedgerVerdict } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

type State = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; verdict: LedgerVerdict } | { kind: 'failed'; message: string };

function describe(verdict: LedgerVerdict): string {
  return verdict.intact
    ? `Intact: ${verdict.size} entries, head ${verdict.headHash.slice(0, 16)}…`
    : `Not intact: entry ${verdict.firstBadSeq} is the first bad one: ${verdict.reason}`;
}

/** "Verify": re-checks the whole hash chain on the host and says intact, or which entry is the first bad one. */
export function VerifyLedger() {
  const client = useConnection((s) => s.client);
  const [state, setState] = useState<State>({ kind: 'idle' });

  const verify = async (): Promise<void> => {
    if (!client) return;
    setState({ kind: 'running' });
    try {
      setState({ kind: 'done', verdict: await client.call('ledger.verify', {}) });
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error) });
    }
  };

  const text = state.kind === 'done' ? describe(state.verdict) : state.kind === 'failed' ? `Verify failed: ${state.message}` : '';
  const tone = state.kind === 'done' && state.verdict.intact ? 'verdict-ok' : 'verdict-bad';
  return (
    <div className="ledger-verify">
      <button
        type="button"
        className="secondary"
        disabled={!client || state.kind === 'running'}
        aria-busy={state.kind === 'running' || undefined}
        onClick={() => void verify()}
        data-testid="ledger-verify"
      >
        Verify
      </button>
      {text && (
        <span className={tone} role="status" data-testid="ledger-verify-result" title={state.kind === 'done' && state.verdict.intact ? state.verdict.headHash : undefined}>
          {text}
        </span>
      )}
    </div>
  );
}
