import { useEffect, useRef, useState } from 'react';
import type { LedgerExportEvent } from '../../../src-preload/contract';
import type { Subscription } from '../../../src-preload/rpc';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { useExportOpener } from './exportOpener';

type Done = Extract<LedgerExportEvent, { kind: 'done' }>;
type State =
  | { kind: 'closed' }
  | { kind: 'form' }
  | { kind: 'running'; written: number; total: number }
  | { kind: 'done'; result: Done }
  | { kind: 'failed'; message: string };

/** "a, b ,, c" → ["a", "b", "c"]: the form takes lists as comma-separated text. */
function listOf(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * "Export…": writes a file a reviewer can verify offline (`omni ledger verify --file`), of the whole ledger or one
 * session, with chosen payloads withheld (their commitments stay, so it still verifies). Progress while the host
 * writes it; Cancel abandons it and leaves no file.
 */
export function ExportLedger() {
  const client = useConnection((s) => s.client);
  const sessions = useSessions((s) => s.sessions);
  const [state, setState] = useState<State>({ kind: 'closed' });
  const [sessionId, setSessionId] = useState('');
  const [redactAll, setRedactAll] = useState(false);
  const [types, setTypes] = useState('');
  const [fields, setFields] = useState('');
  const subscription = useRef<Subscription | null>(null);
  const firstField = useRef<HTMLSelectElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => () => subscription.current?.dispose(), []);
  // Opened from elsewhere (the command palette): the form, unless an export is already under way.
  const openRequests = useExportOpener((s) => s.requests);
  useEffect(() => {
    if (openRequests > 0) setState((current) => (current.kind === 'running' ? current : { kind: 'form' }));
  }, [openRequests]);
  useEffect(() => {
    if (state.kind === 'form') firstField.current?.focus();
  }, [state.kind]);

  const start = (): void => {
    if (!client) return;
    setState({ kind: 'running', written: 0, total: 0 });
    subscription.current = client.subscribe(
      'ledger.export',
      { sessionId: sessionId || undefined, redactAll, redactTypes: listOf(types), redactFields: listOf(fields) },
      {
        onItem: (event) => {
          if (event.kind === 'progress') setState({ kind: 'running', written: event.written, total: event.total });
          else setState({ kind: 'done', result: event });
        },
        onEnd: (error) => {
          subscription.current = null;
          if (error) setState({ kind: 'failed', message: errorMessage(error) });
        },
      },
    );
  };

  const cancel = (): void => {
    subscription.current?.dispose();
    subscription.current = null;
    setState({ kind: 'form' });
  };

  const copy = (text: string): void => void navigator.clipboard?.writeText(text).catch(() => {});

  /** Closes the popover and gives the keyboard back to the button that opened it. */
  const close = (): void => {
    setState({ kind: 'closed' });
    opener.current?.focus();
  };

  const open = state.kind !== 'closed';
  return (
    // The popover hangs below its button, right-aligned with it: the button stays visible and toggles it.
    <div className="ledger-export-anchor">
      <button
        ref={opener}
        type="button"
        className="secondary"
        disabled={!client}
        aria-expanded={open}
        aria-controls={open ? 'ledger-export-panel' : undefined}
        onClick={() => (open ? state.kind !== 'running' && close() : setState({ kind: 'form' }))}
        data-testid="ledger-export"
      >
        Export…
      </button>
      {open && (
    <div
      id="ledger-export-panel"
      className="ledger-export"
      role="dialog"
      aria-label="Export the ledger"
      data-testid="ledger-export-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          if (state.kind === 'running') cancel();
          else close();
        }
      }}
    >
      {(state.kind === 'form' || state.kind === 'failed') && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            start();
          }}
        >
          <label>
            Entries
            <select ref={firstField} value={sessionId} onChange={(e) => setSessionId(e.target.value)} data-testid="ledger-export-session">
              <option value="">the whole ledger</option>
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  session {s.name} (others elided)
                </option>
              ))}
            </select>
          </label>
          <label className="inline">
            <input type="checkbox" checked={redactAll} onChange={(e) => setRedactAll(e.target.checked)} data-testid="ledger-export-redact-all" />
            Withhold every payload
          </label>
          <label>
            Withhold payloads of types
            <input type="text" placeholder="e.g. terminal.*, exec.spawn" value={types} disabled={redactAll} onChange={(e) => setTypes(e.target.value)} data-testid="ledger-export-types" />
          </label>
          <label>
            Withhold fields
            <input type="text" placeholder="e.g. env.TOKEN, argv" value={fields} disabled={redactAll} onChange={(e) => setFields(e.target.value)} data-testid="ledger-export-fields" />
          </label>
          <small>
            Withheld payloads keep their commitments: the file still verifies, without showing them. A withheld field hides just that field; the rest of its
            payload is shown, though the commitment cannot prove it.
          </small>
          {state.kind === 'failed' && (
            <p className="verdict-bad" role="alert">
              Export failed: {state.message}
            </p>
          )}
          <div className="ledger-export-buttons">
            <button type="submit" data-testid="ledger-export-start">
              Export
            </button>
            <button type="button" className="secondary" onClick={close}>
              Close
            </button>
          </div>
        </form>
      )}
      {state.kind === 'running' && (
        <div role="status" aria-live="polite">
          <progress value={state.written} max={state.total || undefined} data-testid="ledger-export-progress" />
          <span>{state.total ? `${state.written.toLocaleString()} of ${state.total.toLocaleString()} entries written` : 'Starting…'}</span>
          <button type="button" className="secondary" onClick={cancel} data-testid="ledger-export-cancel">
            Cancel
          </button>
        </div>
      )}
      {state.kind === 'done' && (
        <div role="status" data-testid="ledger-export-done">
          <p className="verdict-ok">
            Exported {state.result.entries.toLocaleString()} entries ({state.result.redacted.toLocaleString()} withheld, {state.result.elided.toLocaleString()} elided,{' '}
            {state.result.checkpoints} signed checkpoints) to <code data-testid="ledger-export-file">{state.result.file}</code>
          </p>
          <div className="ledger-export-buttons">
            <button type="button" className="secondary" onClick={() => copy(state.result.file)}>
              Copy path
            </button>
            <button type="button" className="secondary" onClick={() => copy(`omni ledger verify --file '${state.result.file}'`)}>
              Copy verify command
            </button>
            <button type="button" className="secondary" onClick={close}>
              Close
            </button>
          </div>
        </div>
      )}
    </div>
      )}
    </div>
  );
}
