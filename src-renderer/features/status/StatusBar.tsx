import { useConnection, type ConnectionStatus } from '../../bridge/connectionStore';
import { isElectronWindow } from '../../bridge/connection';
import { ShortcutHelp } from './ShortcutHelp';

const labels: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
};

/** The bottom bar: is the host there, where does it keep its data, which keys do what. */
export function StatusBar() {
  const status = useConnection((s) => s.status);
  const lastError = useConnection((s) => s.lastError);
  const home = useConnection((s) => s.hostInfo?.home);
  const version = useConnection((s) => s.hostInfo?.version);
  const hostPid = useConnection((s) => s.hostInfo?.pid);
  const via = isElectronWindow() ? 'app' : 'WebSocket';

  return (
    <footer className="status-bar">
      <span
        className={`connection-status ${status}`}
        data-testid="connection-status"
        data-status={status}
        data-host-pid={hostPid}
        role="status"
        aria-live="polite"
        title={status === 'connected' ? `Connected to the host over ${via}` : (lastError ?? undefined)}
      >
        <span className="status-dot" aria-hidden="true" />
        {labels[status]}
      </span>
      {home && (
        <span className="host-home" data-testid="host-home" title="Where the host keeps its data ($OMNI_HOME)">
          Home: <code>{home}</code>
        </span>
      )}
      {version && <span className="muted">v{version}</span>}
      <ShortcutHelp />
    </footer>
  );
}
