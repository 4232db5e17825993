import { useState } from 'react';
import type { ConsentGrant } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { formatRemaining } from './durations';

/** One grant with its time left and Revoke. */
export function GrantRow({ grant, now }: { grant: ConsentGrant; now: number }) {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const left = grant.expiresAt - now;

  async function revoke(): Promise<void> {
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      // The grants list (consent.watchGrants) hears the revocation before this call is answered: the row goes.
      await client.call('consent.revoke', { grantId: grant.id });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="grant-row" data-testid="grant-row" data-grant-id={grant.id} data-capability={grant.capability}>
      <code className="grant-capability">{grant.capability}</code>
      <code className="grant-scope" title="Scope">
        {grant.action ?? grant.scope ?? '(any)'}
      </code>
      <span className="grant-agent">{grant.agentId}</span>
      <span className="grant-expiry" data-testid="grant-countdown" title={new Date(grant.expiresAt).toLocaleString()}>
        {grant.status === 'used' ? (grant.capability.startsWith('oauth:') ? 'for this run, in use' : 'used once, in flight') : grant.once ? `once, ${formatRemaining(left)}` : left > 0 ? formatRemaining(left) : 'expiring…'}
      </span>
      <button
        type="button"
        className="icon-button"
        data-testid="grant-revoke"
        aria-label={`Revoke ${grant.capability} on ${grant.scope ?? 'everything'} for ${grant.agentId}`}
        disabled={!client || busy}
        onClick={() => void revoke()}
      >
        Revoke
      </button>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
    </li>
  );
}
