import { useState, type FormEvent } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { sendKeys } from './runActions';

/** The named keys offered as buttons, as the shell tool's send_keys names them, with what a user reads. */
const namedKeys: readonly { key: string; label: string; title: string }[] = [
  { key: 'Enter', label: 'Enter ⏎', title: 'Send the text, then Enter' },
  { key: 'Tab', label: 'Tab', title: 'Send the text, then Tab (completion)' },
  { key: 'C-c', label: 'Ctrl+C', title: 'Send the text, then Ctrl+C (interrupt)' },
  { key: 'Up', label: '↑', title: 'Send the text, then the Up arrow (history)' },
  { key: 'Down', label: '↓', title: 'Send the text, then the Down arrow' },
  { key: 'Escape', label: 'Esc', title: 'Send the text, then Escape' },
];

/**
 * Typing into a PTY run: the text field's content goes first, then the key pressed. Enter in the field is the Enter
 * button. Every send is recorded by the host as an input item of the run.
 */
export function SendKeysBar({ runId, label }: { runId: string; label: string }) {
  const client = useConnection((s) => s.client);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(key: string | null): Promise<void> {
    if (!client) return;
    const keys = [...(text === '' ? [] : [text]), ...(key === null ? [] : [key])];
    if (keys.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      await sendKeys(client, runId, keys);
      setText('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    void send('Enter');
  }

  return (
    <form className="send-keys" onSubmit={submit} aria-label={`Send keys to ${label}`} data-testid="exec-run-keys">
      <input
        type="text"
        aria-label="Text to send"
        placeholder="Text to type into the program (Enter sends it with Enter)"
        data-testid="exec-run-keys-text"
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="button" className="secondary outline" data-testid="exec-run-keys-send" disabled={!client || busy || text === ''} title="Send the text alone" onClick={() => void send(null)}>
        Send
      </button>
      {namedKeys.map(({ key, label: keyLabel, title }) => (
        <button key={key} type="button" className="secondary outline" data-testid={`exec-run-key-${key}`} disabled={!client || busy} title={title} onClick={() => void send(key)}>
          {keyLabel}
        </button>
      ))}
      {error && (
        <small className="item-error" role="alert" data-testid="exec-run-keys-error">
          {error}
        </small>
      )}
    </form>
  );
}
