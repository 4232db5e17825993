import './hostDown.css';
import { useConnection } from '../../bridge/connectionStore';

/**
 * Across the top of the page while a host that was connected is gone: what the page shows is frozen as it was (timers
 * stop, live runs read "unknown"), and actions are off (App disables them) until the connection is back and the
 * features have fetched their state again.
 */
export function HostDownBanner() {
  const down = useConnection((s) => s.status === 'reconnecting');
  const lastError = useConnection((s) => s.lastError);
  if (!down) return null;
  return (
    <div className="host-down-banner" role="alert" data-testid="host-down-banner" title={lastError ?? undefined}>
      <strong>Host disconnected — reconnecting…</strong> Live state is frozen and actions are off until it is back.
    </div>
  );
}
