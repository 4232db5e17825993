import { useState } from 'react';
import type { ConnectionCheck } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

const OUTCOME_WORDS: Record<ConnectionCheck['outcome'], string> = { ok: 'Works', failed: 'Failed', untestable: 'Cannot be tested' };

/**
 * Test: asks the host to check the credential without showing it (an OAuth token refresh, or the provider's read-only
 * test request for a key), with progress while it runs and the outcome, its reason and its time after. The button
 * stays enabled (aria-disabled while running): a disabled button would drop the keyboard focus.
 */
export function TestConnection({ connectionId, label }: { connectionId: string; label: string }) {
  const client = useConnection((s) => s.client);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ConnectionCheck | { outcome: 'failed'; message: string; checkedAt: number } | null>(null);

  function test(): void {
    if (!client || running) return;
    setRunning(true);
    client
      .call('credentials.test', { connectionId })
      .then(setResult)
      .catch((e: unknown) => setResult({ outcome: 'failed', message: errorMessage(e), checkedAt: Date.now() }))
      .finally(() => setRunning(false));
  }

  return (
    <>
      <button type="button" className="secondary" data-testid="connection-test" aria-busy={running} aria-disabled={running} aria-label={`Test ${label}`} onClick={test}>
        {running ? 'Testing…' : 'Test'}
      </button>
      {(running || result) && (
        <p
          className={`connection-check check-${running ? 'running' : result!.outcome}`}
          role={!running && result?.outcome === 'failed' ? 'alert' : 'status'}
          data-testid="connection-check"
          data-outcome={running ? 'running' : result!.outcome}
        >
          {running ? (
            'Testing…'
          ) : (
            <>
              <strong>{OUTCOME_WORDS[result!.outcome]}</strong> <span>{result!.message}</span>{' '}
              <time className="muted" dateTime={new Date(result!.checkedAt).toISOString()}>
                (at {new Date(result!.checkedAt).toLocaleTimeString()})
              </time>
            </>
          )}
        </p>
      )}
    </>
  );
}
