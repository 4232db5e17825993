import { useEffect, useId, useState } from 'react';
import type { FlowEvent, ProviderInfo } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { BuiltInClientForm } from './BuiltInClientForm';
import { FlowPanel, type RunningFlow } from './FlowPanel';

interface Props {
  providers: ProviderInfo[];
  disabled: boolean;
  now: number;
  /** Where oauth-providers.json lives, for the footnote that it still works. */
  configFile: string;
  /** A built-in provider's client id was set: the providers are read again, so its Connect is offered at once. */
  onConfigured(): void;
}

/** "Connect" for OAuth providers: device flow (a code shown here) or the browser with PKCE, with live progress. */
export function ConnectOAuth({ providers, disabled, now, configFile, onConfigured }: Props) {
  const client = useConnection((s) => s.client);
  const oauth = providers.filter((p) => p.kind === 'oauth');
  const [providerId, setProviderId] = useState('');
  const [scopes, setScopes] = useState('');
  const [flow, setFlow] = useState<RunningFlow | null>(null);
  const [events, setEvents] = useState<Record<string, FlowEvent>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const provider = oauth.find((p) => p.id === providerId) ?? oauth.find((p) => p.configured) ?? oauth[0];

  // Subscribed for the life of the view, before any flow starts, so a fast answer is never missed.
  useEffect(() => {
    if (!client) return;
    const subscription = client.subscribe('credentials.flowEvents', {}, { onItem: (event) => setEvents((all) => ({ ...all, [event.flowId]: event })) });
    return () => subscription.dispose();
  }, [client]);

  function start(kind: 'device' | 'pkce'): void {
    if (!client || !provider) return;
    setBusy(true);
    setError(null);
    const request = { provider: provider.id, scopes: scopes.split(/[\s,]+/).filter(Boolean) };
    const started: Promise<RunningFlow> =
      kind === 'device'
        ? client.call('credentials.startDeviceFlow', request).then((s) => ({ kind: 'device', started: s }))
        : client.call('credentials.startPkce', request).then((s) => ({ kind: 'pkce', started: s }));
    started
      .then(setFlow)
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  }

  function cancel(): void {
    if (!client || !flow) return;
    client.call('credentials.cancelFlow', { flowId: flow.started.flowId }).catch((e: unknown) => setError(errorMessage(e)));
  }

  if (oauth.length === 0) return null;
  const running = flow !== null && !['connected', 'failed', 'cancelled'].includes(events[flow.started.flowId]?.kind ?? '');
  const offDisabled = disabled || busy || running || !provider?.configured;

  return (
    <section className="connect-oauth" aria-labelledby={`${id}-title`} data-testid="connect-oauth">
      <h3 id={`${id}-title`}>Connect an account</h3>
      <label htmlFor={`${id}-provider`}>Provider</label>
      <select id={`${id}-provider`} value={provider?.id ?? ''} disabled={disabled || running} onChange={(e) => setProviderId(e.target.value)}>
        {oauth.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
            {p.configured ? '' : ' (not configured)'}
          </option>
        ))}
      </select>
      {provider && !provider.configured && <BuiltInClientForm key={provider.id} provider={provider} disabled={disabled} configFile={configFile} onSaved={onConfigured} />}
      <label htmlFor={`${id}-scopes`}>Scopes</label>
      <input id={`${id}-scopes`} type="text" placeholder="e.g. repo read:user" aria-describedby={`${id}-scopes-hint`} value={scopes} disabled={disabled || running} onChange={(e) => setScopes(e.target.value)} />
      <small id={`${id}-scopes-hint`}>Separated by spaces; agents can only be granted scopes the connection holds.</small>
      <div className="connect-buttons">
        {provider?.flows.includes('device') && (
          <button type="button" disabled={offDisabled} onClick={() => start('device')}>
            Connect with a code
          </button>
        )}
        {provider?.flows.includes('pkce') && (
          <button type="button" className="secondary" disabled={offDisabled} onClick={() => start('pkce')}>
            Connect in the browser
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="item-error" data-testid="connect-error">
          {error}
        </p>
      )}
      {flow && provider && (
        <FlowPanel flow={flow} providerName={oauth.find((p) => p.id === flow.started.provider)?.name ?? flow.started.provider} event={events[flow.started.flowId]} now={now} onCancel={cancel} onClose={() => setFlow(null)} />
      )}
    </section>
  );
}
