import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/**
 * Rotate: replaces an API key in place. Two steps (paste the new key, then confirm), because the old key stops being
 * used at once; the connection keeps its id, so agents' grants and handles keep working with the new key. The new
 * key goes to the host once and the field is cleared.
 */
export function RotateKey({ connectionId, label, onRotated }: { connectionId: string; label: string; onRotated(text: string): void }) {
  const client = useConnection((s) => s.client);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  /** Set when the form closes, so the button it came from gets the focus back once it is on screen again. */
  const [returnFocus, setReturnFocus] = useState(false);

  useEffect(() => {
    if (open && !confirming) input.current?.focus();
    if (confirming) confirm.current?.focus();
    if (!open && returnFocus) {
      opener.current?.focus();
      setReturnFocus(false);
    }
  }, [open, confirming, returnFocus]);

  function close(): void {
    setOpen(false);
    setConfirming(false);
    setApiKey('');
    setError(null);
    // Back where the user started, so the keyboard does not lose its place.
    setReturnFocus(true);
  }

  function next(event: FormEvent): void {
    event.preventDefault();
    if (!apiKey.trim()) {
      setError('The new API key is empty: paste the whole new key.');
      input.current?.focus();
      return;
    }
    setError(null);
    setConfirming(true);
  }

  function rotate(): void {
    if (!client) return;
    setBusy(true);
    client
      .call('credentials.rotateKey', { connectionId, apiKey })
      .then(() => {
        onRotated(`Rotated ${label}: the new key is in the OS keychain and the old one was overwritten. Agents' grants keep working with the new key.`);
        close();
      })
      .catch((e: unknown) => {
        setError(errorMessage(e));
        setConfirming(false);
      })
      .finally(() => setBusy(false));
  }

  if (!open) {
    return (
      <button type="button" className="secondary" ref={opener} data-testid="connection-rotate" aria-label={`Rotate the key of ${label}`} onClick={() => setOpen(true)}>
        Rotate key
      </button>
    );
  }
  return (
    <form className="rotate-key" onSubmit={next} data-testid="rotate-key" aria-label={`Rotate the key of ${label}`}>
      {!confirming ? (
        <>
          <label htmlFor={`${id}-key`}>New API key</label>
          <input
            id={`${id}-key`}
            ref={input}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setApiKey(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && close()}
          />
          <div className="connection-actions">
            <button type="submit">Next</button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <>
          <p data-testid="rotate-confirm-text">
            Replace the key of <strong>{label}</strong>? The old key stops being used at once; agents' grants keep working with the new one. The old key stays valid at the
            provider until you delete it there.
          </p>
          <div className="connection-actions">
            <button type="button" ref={confirm} disabled={busy} aria-busy={busy} onClick={rotate} onKeyDown={(e) => e.key === 'Escape' && close()}>
              {busy ? 'Replacing…' : 'Replace the key'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
        </>
      )}
      {error && (
        <p role="alert" id={`${id}-error`} className="item-error" data-testid="rotate-error">
          {error}
        </p>
      )}
    </form>
  );
}
