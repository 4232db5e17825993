import { useId, useState, type FormEvent } from 'react';
import type { ProviderInfo } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

interface Props {
  providers: ProviderInfo[];
  disabled: boolean;
}

/**
 * Stores an API key in the OS keychain. The key goes to the host once and is cleared from the form right after;
 * nothing ever shows it again (the list shows the label).
 */
export function AddApiKeyForm({ providers, disabled }: Props) {
  const client = useConnection((s) => s.client);
  const keyProviders = providers.filter((p) => p.kind === 'api_key');
  const [providerId, setProviderId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ text: string; error: boolean } | null>(null);
  const id = useId();
  const provider = keyProviders.find((p) => p.id === providerId) ?? keyProviders[0];

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (!client || !provider) return;
    setBusy(true);
    setResult(null);
    const request = { provider: provider.id, apiKey, label: label.trim() || undefined, baseUrl: provider.needsBaseUrl ? baseUrl.trim() : undefined };
    client
      .call('credentials.addApiKey', request)
      .then((connection) => {
        setApiKey('');
        setLabel('');
        setResult({ text: `Added ${connection.label}: the key is in the OS keychain and will not be shown again.`, error: false });
      })
      .catch((e: unknown) => setResult({ text: errorMessage(e), error: true }))
      .finally(() => setBusy(false));
  }

  return (
    <form className="add-api-key" aria-labelledby={`${id}-title`} onSubmit={submit} data-testid="add-api-key">
      <h3 id={`${id}-title`}>Add an API key</h3>
      <label htmlFor={`${id}-provider`}>Provider</label>
      <select id={`${id}-provider`} value={provider?.id ?? ''} disabled={disabled} onChange={(e) => setProviderId(e.target.value)}>
        {keyProviders.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {provider?.needsBaseUrl && (
        <>
          <label htmlFor={`${id}-base`}>Base URL</label>
          <input
            id={`${id}-base`}
            type="url"
            required
            placeholder="http://127.0.0.1:11434/v1"
            aria-describedby={`${id}-base-hint`}
            value={baseUrl}
            disabled={disabled}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
          <small id={`${id}-base-hint`}>The endpoint's /v1 address, e.g. http://127.0.0.1:11434/v1 for a local Ollama; https is required except on this machine.</small>
        </>
      )}
      <label htmlFor={`${id}-key`}>API key</label>
      <input
        id={`${id}-key`}
        type="password"
        required
        autoComplete="off"
        spellCheck={false}
        value={apiKey}
        disabled={disabled}
        onChange={(e) => setApiKey(e.target.value)}
      />
      <label htmlFor={`${id}-label`}>Label (optional)</label>
      <input id={`${id}-label`} type="text" placeholder={provider?.name} value={label} disabled={disabled} onChange={(e) => setLabel(e.target.value)} />
      <button type="submit" disabled={disabled || busy || !provider || apiKey.length === 0}>
        {busy ? 'Adding…' : 'Add API key'}
      </button>
      {result && (
        <p role={result.error ? 'alert' : 'status'} className={result.error ? 'item-error' : 'connection-message'} data-testid="add-api-key-result">
          {result.text}
        </p>
      )}
    </form>
  );
}
