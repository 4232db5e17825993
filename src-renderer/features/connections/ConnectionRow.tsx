import { useState } from 'react';
import type { ConnectionInfo, DisconnectResult } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { relativeTime } from './relativeTime';
import { RotateKey } from './RotateKey';
import { TestConnection } from './TestConnection';
import { useKeyHint } from './useKeyHint';

interface Props {
  connection: ConnectionInfo;
  providerName: string;
  now: number;
  /** The outcome of Disconnect or Rotate, shown by the view: the row itself leaves the list once disconnected. */
  onDisconnected(text: string): void;
}

/** What the user needs to know after Disconnect: gone locally for sure; at the provider only if it said so. */
function describeDisconnect(result: DisconnectResult, providerName: string): string {
  const handles = result.handlesEnded === 1 ? '1 agent handle ended' : `${result.handlesEnded} agent handles ended`;
  if (result.revokedAtProvider) return `Disconnected: ${providerName} confirmed the revocation; ${handles}.`;
  if (result.providerError) return `Disconnected here, but ${providerName} did not confirm the revocation (${result.providerError}); revoke it in your ${providerName} account settings. ${handles}.`;
  if (result.connection.kind === 'api_key') return `Disconnected: the key was deleted from the keychain; ${handles}. The key itself stays valid at ${providerName} until you delete it there.`;
  return `Disconnected here; ${providerName} offers no way to revoke the token, so remove the app's access in your ${providerName} account settings. ${handles}.`;
}

function expiryText(connection: ConnectionInfo, now: number): string {
  if (connection.expiresAt === null) return connection.kind === 'api_key' ? 'does not expire' : 'unknown';
  return connection.expiresAt > now ? `expires ${relativeTime(connection.expiresAt, now)}` : `expired ${relativeTime(connection.expiresAt, now)}`;
}

/** One connection: what it is, what it may do, until when, who holds handles to it; Refresh and Disconnect. */
export function ConnectionRow({ connection, providerName, now, onDisconnected }: Props) {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState<'refresh' | 'disconnect' | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const live = connection.status === 'connected';
  const hint = useKeyHint(connection.id, connection.kind === 'api_key', connection.updatedAt);

  function run(action: 'refresh' | 'disconnect'): void {
    if (!client) return;
    setBusy(action);
    setMessage(null);
    const done =
      action === 'refresh'
        ? client.call('credentials.refresh', { connectionId: connection.id }).then(() => setMessage({ text: 'Refreshed.', error: false }))
        : client.call('credentials.disconnect', { connectionId: connection.id }).then((result) => onDisconnected(describeDisconnect(result, providerName)));
    done
      .catch((e: unknown) => setMessage({ text: errorMessage(e), error: true }))
      .finally(() => setBusy(null));
  }

  return (
    <li className="connection-row" data-testid="connection-row" data-connection-id={connection.id} data-status={connection.status}>
      <div className="connection-title">
        <strong>{providerName}</strong> <span data-testid="connection-label">{connection.label}</span>
        <span className={`connection-status status-${connection.status}`} data-testid="connection-status">
          {connection.status}
        </span>
      </div>
      {connection.statusReason && <p className="muted connection-reason">{connection.statusReason}</p>}
      <dl className="connection-facts">
        <dt>Scopes</dt>
        <dd data-testid="connection-scopes">{connection.scopes.join(' ') || '—'}</dd>
        {connection.baseUrl && (
          <>
            <dt>Base URL</dt>
            <dd>{connection.baseUrl}</dd>
          </>
        )}
        {connection.kind === 'api_key' && (
          <>
            <dt>Key</dt>
            <dd data-testid="connection-key-hint">{hint ?? 'hidden (shorter than 12 characters, or not in the keychain)'}</dd>
          </>
        )}
        <dt>Expiry</dt>
        <dd data-testid="connection-expiry" title={connection.expiresAt ? new Date(connection.expiresAt).toLocaleString() : undefined}>
          {expiryText(connection, now)}
        </dd>
        <dt>Handles</dt>
        <dd data-testid="connection-handles">
          {connection.handles.length === 0
            ? 'no agent holds a handle'
            : connection.handles.map((h) => (
                <span key={h.handleId} className="handle-holder">
                  {h.agentId} in {h.sessionId} ({h.capability})
                </span>
              ))}
        </dd>
      </dl>
      {/* Test stays for every listed connection: a Test that finds the grant revoked keeps its answer on screen. */}
      <div className="connection-actions">
        <TestConnection connectionId={connection.id} label={connection.label} />
        {connection.kind === 'api_key' && connection.status !== 'revoked' && <RotateKey connectionId={connection.id} label={connection.label} onRotated={onDisconnected} />}
        {live && connection.kind === 'oauth' && (
          <button type="button" className="secondary" disabled={busy !== null} onClick={() => run('refresh')}>
            {busy === 'refresh' ? 'Refreshing…' : 'Refresh'}
          </button>
        )}
        {live && (
          <button type="button" className="secondary" data-testid="connection-disconnect" disabled={busy !== null} onClick={() => run('disconnect')}>
            {busy === 'disconnect' ? 'Disconnecting…' : 'Disconnect'}
          </button>
        )}
      </div>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'item-error' : 'connection-message'} data-testid="connection-message">
          {message.text}
        </p>
      )}
    </li>
  );
}
