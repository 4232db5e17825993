import { useEffect, useState } from 'react';
import { useConnection } from '../bridge/connectionStore';

/**
 * The current time, refreshed every `intervalMs` while `active`: for countdowns, elapsed times and "expires in …"
 * that stay true while on screen.
 *
 * The one clock of the renderer (consent and connections had one each; runs borrowed consent's). `active` lets a
 * screen with nothing live (no running run, no grant with an expiry) stop the timer instead of re-rendering every
 * second; it defaults to true for screens that always count (connections' "expires in"). The time is read again the
 * moment it turns active, so a countdown never starts from the stale value it kept while idle.
 *
 * While a host that was connected is gone, every clock stops where it was: what the page shows is frozen (a timer
 * counting on would claim the run still runs), and the host's own times take over again once it is back.
 */
export function useNow(active = true, intervalMs = 1000): number {
  const hostDown = useConnection((s) => s.status === 'reconnecting');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active || hostDown) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, hostDown, intervalMs]);
  return now;
}
