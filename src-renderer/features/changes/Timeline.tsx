import { useState } from 'react';
import type { ChangeTurn, Snapshot } from '../../../src-preload/contract';
import { clockTime } from './formatTime';
import { RestoreConfirm } from './RestoreConfirm';

const momentWords: Record<Snapshot['moment'], string> = { start: 'session start', before: 'before', after: 'after' };

interface Props {
  snapshots: readonly Snapshot[];
  onRestored(turn: ChangeTurn): void;
}

/** The rewind timeline: every snapshot of the session, oldest first, each with "Restore to here". */
export function Timeline({ snapshots, onRestored }: Props) {
  const [restoring, setRestoring] = useState<string | null>(null);
  if (snapshots.length === 0) return <p className="muted">No snapshot yet: one is taken before each agent turn.</p>;
  return (
    <ol className="changes-timeline" aria-label="Snapshots">
      {snapshots.map((snapshot) => (
        <li key={snapshot.id} className="changes-snapshot" data-testid="timeline-snapshot" data-snapshot-id={snapshot.id} data-moment={snapshot.moment}>
          <div className="changes-snapshot-line">
            <span className="badge">{momentWords[snapshot.moment]}</span>
            <strong>{snapshot.agent}</strong>
            <span className="changes-title">{snapshot.title}</span>
            <time className="muted" dateTime={new Date(snapshot.takenAt).toISOString()}>
              {clockTime(snapshot.takenAt)}
            </time>
            <span>{snapshot.filesChanged === 1 ? '1 file changed' : `${snapshot.filesChanged} files changed`}</span>
            {snapshot.skipped.length > 0 && (
              <span className="muted" title={snapshot.skipped.map((s) => `${s.path}: ${s.reason}`).join('\n')}>
                {snapshot.skipped.length} skipped
              </span>
            )}
            {restoring !== snapshot.id && (
              <button type="button" className="icon-button" data-testid="timeline-restore" onClick={() => setRestoring(snapshot.id)}>
                Restore to here
              </button>
            )}
          </div>
          {restoring === snapshot.id && (
            <RestoreConfirm
              snapshot={snapshot}
              onCancel={() => setRestoring(null)}
              onDone={(turn) => {
                setRestoring(null);
                onRestored(turn);
              }}
            />
          )}
        </li>
      ))}
    </ol>
  );
}
