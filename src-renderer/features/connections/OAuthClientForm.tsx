import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { RpcError, type OAuthClientInfo, type SaveOAuthClientRequest } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

interface Props {
  /** The client to edit; null: a new one. */
  editing: OAuthClientInfo | null;
  onSaved(client: OAuthClientInfo): void;
  onCancel(): void;
}

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/**
 * Adds or edits an OAuth client: the app's registration with an authorization server (issuer, or its endpoints when
 * it has no discovery), client id, an optional client secret (to the OS keychain, never shown again), the scopes to
 * ask for, the API hosts the token may go to, how to sign in. It applies as soon as it is saved: no file, no restart.
 * The host checks it and names the field it refuses, which is marked here.
 */
export function OAuthClientForm({ editing, onSaved, onCancel }: Props) {
  const client = useConnection((s) => s.client);
  const id = useId();
  const [name, setName] = useState(editing?.name ?? '');
  const [issuer, setIssuer] = useState(editing?.issuer ?? '');
  const [manual, setManual] = useState(editing?.endpoints !== null && editing !== null);
  const [authorization, setAuthorization] = useState(editing?.endpoints?.authorization ?? '');
  const [token, setToken] = useState(editing?.endpoints?.token ?? '');
  const [device, setDevice] = useState(editing?.endpoints?.deviceAuthorization ?? '');
  const [revocation, setRevocation] = useState(editing?.endpoints?.revocation ?? '');
  const [clientId, setClientId] = useState(editing?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const [scopes, setScopes] = useState(editing ? editing.scopes.join(' ') : 'offline_access');
  const [apiDomains, setApiDomains] = useState(editing?.apiDomains.join(' ') ?? '');
  const [apiBaseUrl, setApiBaseUrl] = useState(editing?.apiBaseUrl ?? '');
  const [deviceFlow, setDeviceFlow] = useState(editing ? editing.flows.includes('device') : true);
  const [pkce, setPkce] = useState(editing ? editing.flows.includes('pkce') : true);
  const [port, setPort] = useState(editing?.redirectPort ? String(editing.redirectPort) : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; field: string | null } | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => first.current?.focus(), []);
  // The field the host refused gets the focus, so the keyboard lands where the fix goes.
  useEffect(() => {
    if (error?.field) form.current?.querySelector<HTMLElement>(`[data-field="${error.field}"]`)?.focus();
  }, [error]);

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (!client) return;
    const portNumber = port.trim() ? Number(port) : null;
    if (portNumber !== null && (!Number.isInteger(portNumber) || portNumber < 1024 || portNumber > 65535)) {
      setError({ text: 'redirectPort: the redirect port is a number from 1024 to 65535, or empty for any free port', field: 'redirectPort' });
      return;
    }
    const request: SaveOAuthClientRequest = {
      ...(editing ? { id: editing.id } : {}),
      name,
      issuer,
      endpoints: manual ? { authorization: authorization.trim() || null, token, deviceAuthorization: device.trim() || null, revocation: revocation.trim() || null } : null,
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      ...(removeSecret ? { removeClientSecret: true } : {}),
      scopes: words(scopes),
      apiDomains: words(apiDomains),
      apiBaseUrl: apiBaseUrl.trim() || null,
      redirectPort: portNumber,
      flows: [...(deviceFlow ? (['device'] as const) : []), ...(pkce ? (['pkce'] as const) : [])],
    };
    setBusy(true);
    setError(null);
    client
      .call('credentials.saveOAuthClient', request)
      .then((saved) => {
        setClientSecret('');
        onSaved(saved);
      })
      .catch((e: unknown) => setError({ text: errorMessage(e), field: e instanceof RpcError ? (e.issues?.[0]?.path ?? null) : null }))
      .finally(() => setBusy(false));
  }

  const invalid = (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});
  const field = (key: string, label: string, value: string, set: (v: string) => void, extra: Record<string, unknown> = {}) => (
    <>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input id={`${id}-${key}`} data-field={key} value={value} onChange={(e) => set(e.target.value)} {...invalid(key)} {...extra} />
    </>
  );

  return (
    <form ref={form} className="oauth-client-form" onSubmit={submit} data-testid="oauth-client-form" aria-label={editing ? `Edit ${editing.name}` : 'Add an OAuth client'} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <label htmlFor={`${id}-name`}>Name</label>
      <input id={`${id}-name`} ref={first} data-field="name" value={name} placeholder="Acme SSO" onChange={(e) => setName(e.target.value)} {...invalid('name')} />
      {field('issuer', 'Issuer URL', issuer, setIssuer, { type: 'url', placeholder: 'https://sso.example.com' })}
      <label className="inline-check">
        <input type="checkbox" checked={manual} onChange={(e) => setManual(e.target.checked)} /> No OpenID discovery: give the endpoints
      </label>
      {manual && (
        <fieldset className="oauth-endpoints">
          <legend>Endpoints</legend>
          {field('endpoints.authorization', 'Authorization endpoint', authorization, setAuthorization, { type: 'url' })}
          {field('endpoints.token', 'Token endpoint', token, setToken, { type: 'url' })}
          {field('endpoints.deviceAuthorization', 'Device authorization endpoint', device, setDevice, { type: 'url' })}
          {field('endpoints.revocation', 'Revocation endpoint (optional)', revocation, setRevocation, { type: 'url' })}
        </fieldset>
      )}
      {field('clientId', 'Client ID', clientId, setClientId, { autoComplete: 'off', spellCheck: false })}
      <label htmlFor={`${id}-secret`}>Client secret (optional)</label>
      <input
        id={`${id}-secret`}
        type="password"
        autoComplete="off"
        data-field="clientSecret"
        value={clientSecret}
        aria-describedby={`${id}-secret-hint`}
        placeholder={editing?.hasClientSecret ? 'stored in the OS keychain; type to replace it' : ''}
        onChange={(e) => setClientSecret(e.target.value)}
      />
      <small id={`${id}-secret-hint`}>Only if the provider insists on one for desktop apps. It goes to the OS keychain and is never shown again.</small>
      {editing?.hasClientSecret && (
        <label className="inline-check">
          <input type="checkbox" checked={removeSecret} onChange={(e) => setRemoveSecret(e.target.checked)} /> Remove the stored client secret
        </label>
      )}
      {field('scopes', 'Scopes asked for on every sign-in', scopes, setScopes, { placeholder: 'offline_access' })}
      {field('apiDomains', 'API hosts the token may be sent to', apiDomains, setApiDomains, { placeholder: 'api.example.com' })}
      {field('apiBaseUrl', 'API base URL (optional)', apiBaseUrl, setApiBaseUrl, { type: 'url', placeholder: 'https://api.example.com' })}
      <fieldset className="oauth-flows" data-field="flows" tabIndex={-1} {...invalid('flows')}>
        <legend>Sign in with</legend>
        <label className="inline-check">
          <input type="checkbox" checked={deviceFlow} onChange={(e) => setDeviceFlow(e.target.checked)} /> a code (device flow)
        </label>
        <label className="inline-check">
          <input type="checkbox" checked={pkce} onChange={(e) => setPkce(e.target.checked)} /> the browser (PKCE)
        </label>
      </fieldset>
      {field('redirectPort', 'Fixed redirect port (optional)', port, setPort, { inputMode: 'numeric', placeholder: 'any free port' })}
      <small>
        Register this redirect URI with the provider: <code data-testid="oauth-client-redirect">http://127.0.0.1{port.trim() ? `:${port.trim()}` : ''}/callback</code>
        {port.trim() ? '' : ' (any port, RFC 8252)'}
      </small>
      {error && (
        <p role="alert" id={`${id}-error`} className="item-error" data-testid="oauth-client-error">
          {error.text}
        </p>
      )}
      <div className="connection-actions">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Add client'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
