import { useEffect, useState } from 'react';
import type { RecentWorkspace } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { useSessions } from '../../ui/sessionsStore';

/** How many recent folders the form shows: enough to come back to, few enough to leave room for the sessions. */
const SHOWN = 5;

const lastPart = (path: string): string => path.split('/').filter(Boolean).pop() ?? path;

/**
 * The folders of past sessions, most recent first: one click fills the form's folder field. A folder deleted or moved
 * since is marked missing (picking it offers to create it again).
 */
export function RecentWorkspaces({ onPick }: { onPick: (workspace: string) => void }) {
  const client = useConnection((s) => s.client);
  // Any session created, renamed, closed or reopened may change the order: asked again then.
  const sessions = useSessions((s) => s.sessions);
  const [recent, setRecent] = useState<RecentWorkspace[]>([]);

  useEffect(() => {
    if (!client) return;
    let live = true;
    client.call('session.recentWorkspaces', { limit: SHOWN }).then(
      (list) => live && setRecent(list),
      // Nothing to offer is the honest fallback: the folder field and Browse still work.
      () => live && setRecent([]),
    );
    return () => {
      live = false;
    };
  }, [client, sessions]);

  if (recent.length === 0) return null;
  return (
    <div className="recent-workspaces" data-testid="recent-workspaces">
      <small id="recent-workspaces-title" className="muted">
        Recent workspaces
      </small>
      <ul aria-labelledby="recent-workspaces-title">
        {recent.map((entry) => (
          <li key={entry.workspace}>
            <button
              type="button"
              className="recent-workspace"
              data-testid="recent-workspace"
              data-missing={entry.exists ? undefined : 'true'}
              title={`${entry.workspace}${entry.exists ? '' : ' (missing)'} — last: ${entry.sessionName}`}
              aria-label={`Use ${entry.workspace}${entry.exists ? '' : ', missing'}`}
              onClick={() => onPick(entry.workspace)}
            >
              <span className="recent-workspace-name">{lastPart(entry.workspace)}</span>
              {!entry.exists && <span className="badge recent-workspace-missing">missing</span>}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
