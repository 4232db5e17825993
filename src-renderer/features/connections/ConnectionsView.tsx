import './connections.css';
import { useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { AddApiKeyForm } from './AddApiKeyForm';
import { ConnectionRow } from './ConnectionRow';
import { ConnectOAuth } from './ConnectOAuth';
import { OAuthClientsPanel } from './OAuthClientsPanel';
import { useCredentials } from './useCredentials';
import { useNow } from '../../ui/useNow';

/**
 * The Connections tab: whether the OS keychain can hold credentials (without it nothing can be added: there is no
 * plaintext fallback), the connections with their scopes, expiry and the agents holding handles, and the ways to add
 * one: an API key, or an OAuth account through a device code or the browser.
 */
export function ConnectionsView() {
  const { status, providers, connections, error, reload } = useCredentials();
  const home = useConnection((s) => s.hostInfo?.home);
  const now = useNow();
  const [notice, setNotice] = useState<string | null>(null);
  const unavailable = status !== null && !status.available;
  const nameOf = (providerId: string): string => providers.find((p) => p.id === providerId)?.name ?? providerId;

  return (
    <section
      className="connections-view"
      data-testid="connections-view"
      data-keychain={status === null ? 'unknown' : status.available ? 'available' : 'unavailable'}
      aria-label="Connections"
    >
      <header className="connections-header">
        <h2>Connections</h2>
        <p className="muted">Agents never see these keys and tokens: they get a handle, and the app adds the credential to their requests.</p>
      </header>
      {unavailable && (
        <div className="keychain-banner" role="alert" data-testid="keychain-banner">
          <strong>Credentials are off: the OS keychain is not available.</strong>
          <p>{status.problem}</p>
          <p>
            Keys and tokens are only ever stored in the OS keychain, never in a file. Start a keychain (on Linux a Secret Service such as
            gnome-keyring, unlocked, on the session's D-Bus; and not OMNI_KEYCHAIN=off), then restart the app.
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className="item-error" data-testid="connections-error">
          {error}
        </p>
      )}
      <h3>Connected</h3>
      {notice && (
        <p role="status" className="connection-message" data-testid="connections-notice">
          {notice}
        </p>
      )}
      {connections === null && !error && <p className="muted">Loading…</p>}
      {connections?.length === 0 && <p className="muted empty">No connections yet.</p>}
      <ul className="connection-list" aria-label="Connections">
        {connections?.map((c) => (
          <ConnectionRow key={c.id} connection={c} providerName={nameOf(c.provider)} now={now} onDisconnected={setNotice} />
        ))}
      </ul>
      <div className="connect-forms">
        <AddApiKeyForm providers={providers} disabled={status === null || unavailable} />
        <ConnectOAuth providers={providers} disabled={status === null || unavailable} now={now} configFile={home ? `${home}/oauth-providers.json` : '<app home>/oauth-providers.json'} onConfigured={reload} />
      </div>
      <OAuthClientsPanel disabled={status === null || unavailable} onChanged={reload} />
    </section>
  );
}
