import { useState } from 'react';
import type { ConsentGrant } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { commandWords, scopeSentence } from './consentWords';
import { formatRemaining } from './durations';

/** What a grant allows, in the card's words: the command (with its folder), the exact action, or the scope sentence. */
function grantWords(grant: ConsentGrant, workspace: string | null): string {
  if (grant.capability === 'process.exec' && grant.action) {
    const command = commandWords(grant.action, workspace);
    if (command) return `$ ${command.line}${command.folder ? ` in ${command.folder}` : ''}`;
  }
  return grant.action ?? scopeSentence(grant.capability, grant.scope, workspace);
}

/** One grant (within its agent's group) with what it allows, its time left and Revoke. */
export function GrantRow({ grant, now, workspace = null }: { grant: ConsentGrant; now: number; workspace?: string | null }) {
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
      <span className="grant-scope" data-testid="grant-what" title={grant.action ?? grant.scope ?? undefined}>
        {grantWords(grant, workspace)}
      </span>
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
