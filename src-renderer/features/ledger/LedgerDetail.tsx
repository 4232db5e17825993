import { useEffect, useState, type KeyboardEvent } from 'react';
import type { LedgerEntry, LedgerEntryDetail } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { ledgerSentence, type WorkspaceOf } from './ledgerSentence';
import { formatTime, timeAgo } from './ledgerTime';
import { useNow } from '../../ui/useNow';

interface Props {
  entry: LedgerEntry;
  sessionLabel: string | null;
  workspaceOf: WorkspaceOf;
  onClose(): void;
}

type Hashes = { kind: 'loading' } | { kind: 'done'; detail: LedgerEntryDetail } | { kind: 'failed'; message: string };

function Hash({ value }: { value: string }) {
  return (
    <code className="ledger-hash" title={value}>
      {value}
    </code>
  );
}

/**
 * Everything about one entry: when, what, who, in which session, its whole payload as indented JSON, and where it
 * sits in the hash chain (its hash, the previous entry's, and its payload commitment), fetched from the host.
 */
export function LedgerDetail({ entry, sessionLabel, workspaceOf, onClose }: Props) {
  const now = useNow(true, 30_000);
  const client = useConnection((s) => s.client);
  const [hashes, setHashes] = useState<Hashes>({ kind: 'loading' });

  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    setHashes({ kind: 'loading' });
    client.call('ledger.entry', { seq: entry.seq }).then(
      (detail) => !cancelled && setHashes({ kind: 'done', detail }),
      (error: unknown) => !cancelled && setHashes({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [client, entry.seq]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  const time = new Date(entry.ts);
  return (
    <aside className="ledger-details" aria-label={`Ledger entry ${entry.seq}`} data-testid="ledger-detail" onKeyDown={onKeyDown}>
      <header>
        <h3>
          Entry {entry.seq} <span className="ledger-type">{entry.type}</span>
        </h3>
        <button type="button" className="secondary" aria-keyshortcuts="Escape" onClick={onClose} data-testid="ledger-detail-close">
          Close
        </button>
      </header>
      <p className="ledger-detail-sentence" data-testid="ledger-detail-sentence">
        {ledgerSentence(entry, workspaceOf)}
      </p>
      <dl>
        <dt>Time</dt>
        <dd data-testid="ledger-detail-time">
          <time dateTime={time.toISOString()}>{formatTime(entry.ts)}</time> <span className="muted">({timeAgo(entry.ts, now)}; {time.toISOString()})</span>
        </dd>
        <dt>Actor</dt>
        <dd data-testid="ledger-detail-actor">{entry.actor}</dd>
        <dt>Session</dt>
        <dd>{entry.sessionId ? (sessionLabel && sessionLabel !== entry.sessionId ? `${sessionLabel} (${entry.sessionId})` : entry.sessionId) : 'none'}</dd>
        {hashes.kind === 'done' && (
          <>
            <dt>Entry hash</dt>
            <dd data-testid="ledger-detail-hash">
              <Hash value={hashes.detail.entryHash} />
            </dd>
            <dt>Previous hash</dt>
            <dd>
              <Hash value={hashes.detail.prevHash} />
            </dd>
            <dt>Payload commitment</dt>
            <dd>
              <Hash value={hashes.detail.payloadCommit} />
            </dd>
          </>
        )}
        {hashes.kind === 'loading' && (
          <>
            <dt>Hashes</dt>
            <dd className="muted">loading…</dd>
          </>
        )}
        {hashes.kind === 'failed' && (
          <>
            <dt>Hashes</dt>
            <dd className="item-error">{hashes.message}</dd>
          </>
        )}
      </dl>
      <h4>Payload</h4>
      <pre data-testid="ledger-detail-payload">{JSON.stringify(entry.payload, null, 2)}</pre>
    </aside>
  );
}
