import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { OAuthClientInfo } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { OAuthClientForm } from './OAuthClientForm';

/**
 * The OAuth clients set up in the app: listed with what to register at the provider, added, edited and removed here,
 * each usable under "Connect an account" the moment it is saved. `onChanged` tells the view to read the providers again.
 */
export function OAuthClientsPanel({ disabled, onChanged }: { disabled: boolean; onChanged(): void }) {
  const client = useConnection((s) => s.client);
  const [clients, setClients] = useState<OAuthClientInfo[]>([]);
  const [editing, setEditing] = useState<OAuthClientInfo | 'new' | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const id = useId();
  const addButton = useRef<HTMLButtonElement>(null);
  /** Set when the form closes or a client is removed: the Add button gets the focus once it is on screen. */
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (returnFocus && editing === null) {
      addButton.current?.focus();
      setReturnFocus(false);
    }
  }, [returnFocus, editing]);

  const load = useCallback(() => {
    client
      ?.call('credentials.oauthClients', {})
      .then(setClients)
      .catch((e: unknown) => setMessage({ text: errorMessage(e), error: true }));
  }, [client]);
  useEffect(load, [load]);

  function closeForm(): void {
    setEditing(null);
    setReturnFocus(true);
  }

  function remove(target: OAuthClientInfo): void {
    client
      ?.call('credentials.removeOAuthClient', { id: target.id })
      .then(() => {
        setMessage({ text: `Removed ${target.name}.`, error: false });
        load();
        onChanged();
        setReturnFocus(true);
      })
      .catch((e: unknown) => setMessage({ text: errorMessage(e), error: true }));
  }

  return (
    <section className="oauth-clients" aria-labelledby={`${id}-title`} data-testid="oauth-clients">
      <h3 id={`${id}-title`}>OAuth clients</h3>
      <p className="muted">The app's registration with a provider you sign in to. It can be connected with as soon as it is saved.</p>
      {clients.length > 0 && (
        <ul className="oauth-client-list" aria-label="OAuth clients">
          {clients.map((c) => (
            <li key={c.id} data-testid="oauth-client-row" data-client-id={c.id}>
              <strong>{c.name}</strong> <span className="muted">{c.issuer}</span>
              <div className="muted">
                Client ID <code>{c.clientId}</code>
                {c.hasClientSecret ? ', secret in the OS keychain' : ''}; redirect URI <code>{c.redirectUri}</code>
              </div>
              <div className="connection-actions">
                <button type="button" className="secondary" disabled={disabled || editing !== null} aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                  Edit
                </button>
                <button type="button" className="secondary" disabled={disabled || editing !== null} aria-label={`Remove ${c.name}`} onClick={() => remove(c)}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing === null ? (
        <button type="button" ref={addButton} className="secondary add-oauth-client" disabled={disabled} onClick={() => (setMessage(null), setEditing('new'))}>
          Add an OAuth client
        </button>
      ) : (
        <OAuthClientForm
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing === 'new' ? null : editing}
          onCancel={closeForm}
          onSaved={(saved) => {
            setMessage({ text: `Saved ${saved.name}: connect it under "Connect an account".`, error: false });
            closeForm();
            load();
            onChanged();
          }}
        />
      )}
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'item-error' : 'connection-message'} data-testid="oauth-clients-message">
          {message.text}
        </p>
      )}
    </section>
  );
}
