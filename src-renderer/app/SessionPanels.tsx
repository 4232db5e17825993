import { useEffect, useState } from 'react';
import { useSessions } from '../ui/sessionsStore';
import { SessionView } from './SessionView';

/**
 * Every session the user has looked at stays mounted and is only hidden, so its terminals keep their screens and
 * streams while another session or the ledger is in front.
 */
export function SessionPanels() {
  const sessions = useSessions((s) => s.sessions);
  const selectedId = useSessions((s) => s.selectedId);
  const loaded = useSessions((s) => s.loaded);
  const [visited, setVisited] = useState<readonly string[]>([]);

  useEffect(() => {
    if (selectedId && !visited.includes(selectedId)) setVisited([...visited, selectedId]);
  }, [selectedId, visited]);

  const mounted = sessions.filter((s) => visited.includes(s.id) || s.id === selectedId);
  return (
    <div className="session-panels">
      {loaded && !sessions.some((s) => s.id === selectedId) && (
        <div className="welcome">
          <h2>No session selected</h2>
          <p className="muted">Start a session on a workspace folder in the sidebar, or pick one from the list.</p>
        </div>
      )}
      {mounted.map((session) => (
        <SessionView key={session.id} session={session} hidden={session.id !== selectedId} />
      ))}
    </div>
  );
}
