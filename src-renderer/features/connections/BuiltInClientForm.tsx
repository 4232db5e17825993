import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { RpcError, type ProviderInfo } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

interface Props {
  /** A built-in OAuth provider (GitHub, Google) with no client id yet. */
  provider: ProviderInfo;
  disabled: boolean;
  /** Where oauth-providers.json lives, for the footnote that it still works. */
  configFile: string;
  /** The client id applied: the providers are read again, so Connect is offered at once. */
  onSaved(): void;
}

/**
 * Sets the OAuth client id this app is registered under with a built-in provider, and its client secret when the
 * provider insists on one (to the OS keychain, never shown again). It applies when saved: no file, no restart. The
 * host's refusal is shown under the field it names, which gets the focus so the keyboard lands where the fix goes.
 */
export function BuiltInClientForm({ provider, disabled, configFile, onSaved }: Props) {
  const client = useConnection((s) => s.client);
  const id = useId();
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; field: 'clientId' | 'clientSecret' } | null>(null);
  const idInput = useRef<HTMLInputElement>(null);
  const secretInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (error) (error.field === 'clientSecret' ? secretInput : idInput).current?.focus();
  }, [error]);

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (!client) return;
    setBusy(true);
    setError(null);
    client
      .call('credentials.configureBuiltInClient', { provider: provider.id, clientId, ...(clientSecret ? { clientSecret } : {}) })
      .then(() => {
        setClientSecret('');
        onSaved();
      })
      .catch((e: unknown) => {
        const path = e instanceof RpcError ? e.issues?.[0]?.path : undefined;
        setError({ text: errorMessage(e), field: path === 'clientSecret' ? 'clientSecret' : 'clientId' });
      })
      .finally(() => setBusy(false));
  }

  const invalid = (field: 'clientId' | 'clientSecret') => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});
  const errorText = (field: 'clientId' | 'clientSecret') =>
    error?.field === field && (
      <p role="alert" id={`${id}-error`} className="item-error" data-testid="builtin-client-error">
        {error.text}
      </p>
    );

  return (
    <form className="builtin-client-form" onSubmit={submit} data-testid="builtin-client-form" aria-label={`Set up ${provider.name}'s OAuth client`}>
      <p className="muted" data-testid="provider-not-configured">
        {provider.name} needs the OAuth client id this app is registered under: register an OAuth app with {provider.name} and give its client id here.
      </p>
      <label htmlFor={`${id}-client-id`}>Client ID</label>
      <input
        id={`${id}-client-id`}
        ref={idInput}
        value={clientId}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled || busy}
        onChange={(e) => setClientId(e.target.value)}
        {...invalid('clientId')}
      />
      {errorText('clientId')}
      <label htmlFor={`${id}-client-secret`}>Client secret (optional)</label>
      <input
        id={`${id}-client-secret`}
        ref={secretInput}
        type="password"
        autoComplete="off"
        value={clientSecret}
        aria-describedby={`${id}-secret-hint`}
        disabled={disabled || busy}
        onChange={(e) => setClientSecret(e.target.value)}
        {...invalid('clientSecret')}
      />
      {errorText('clientSecret')}
      <small id={`${id}-secret-hint`}>Only if {provider.name} insists on one for desktop apps. It goes to the OS keychain and is never shown again.</small>
      <small>
        Register this redirect URI with {provider.name}: <code data-testid="builtin-client-redirect">http://127.0.0.1/callback</code> (any port, RFC 8252)
      </small>
      <button type="submit" disabled={disabled || busy} aria-busy={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <small className="muted">
        The client id can also still be written to {configFile} (see docs/credentials.md); it is read when the app starts.
      </small>
    </form>
  );
}
