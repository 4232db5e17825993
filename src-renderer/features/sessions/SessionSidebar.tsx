// The feature's stylesheet is imported here, not by the form or the dialogs: the palette imports the form for its
// field id, and that code must not pull a stylesheet into the test project.
import './sessions.css';
import { useMemo } from 'react';
import { groupByWorkspace } from './groupByWorkspace';
import { NewSessionForm } from './NewSessionForm';
import { SessionItem } from './SessionItem';
import { useSessions } from '../../ui/sessionsStore';

/** Workspaces grouped by folder with their sessions, and the form that starts a new one. */
export function SessionSidebar() {
  const sessions = useSessions((s) => s.sessions);
  const loaded = useSessions((s) => s.loaded);
  const showClosed = useSessions((s) => s.showClosed);
  const groups = useMemo(
    () => groupByWorkspace(showClosed ? sessions : sessions.filter((s) => s.status === 'open')),
    [sessions, showClosed],
  );
  const closedCount = sessions.filter((s) => s.status === 'closed').length;

  return (
    <aside className="sidebar" aria-label="Sessions">
      <h1 className="app-title">Omniscient Shell</h1>
      <NewSessionForm />
      <nav aria-label="Workspaces and sessions" className="workspace-list" data-testid="session-list">
        {loaded && groups.length === 0 && <p className="muted empty">No sessions yet. Start one on a workspace folder above.</p>}
        {groups.map((group) => (
          <section key={group.workspace} className="workspace-group" aria-label={`Workspace ${group.label}`}>
            <h2 className="workspace-label" title={group.workspace}>
              {group.label}
            </h2>
            <ul>
              {group.sessions.map((session) => (
                <SessionItem key={session.id} session={session} />
              ))}
            </ul>
          </section>
        ))}
      </nav>
      {closedCount > 0 && (
        <label className="show-closed">
          <input type="checkbox" role="switch" checked={showClosed} onChange={(e) => useSessions.getState().setShowClosed(e.target.checked)} />
          Show closed ({closedCount})
        </label>
      )}
    </aside>
  );
}
