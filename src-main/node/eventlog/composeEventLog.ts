import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { TerminalService } from '../terminals/terminalService';
import type { SecretRegistry } from '../vault/secretRegistry';
import { HostEventLog } from './hostEventLog';

export interface EventLogDeps {
  db: Database;
  sessions: SessionService;
  terminals: TerminalService;
  secrets: SecretRegistry;
  log: HostLog;
}

/** Everything that streams, per session, replayable into the session's state; secrets scrubbed as it is written. */
export function composeEventLog({ db, sessions, terminals, secrets, log }: EventLogDeps): AreaComposition<HostEventLog> {
  const events = new HostEventLog(db, sessions, terminals, {
    log: { secrets, onWriteError: (error) => log.error('event log write failed:', error) },
    retention: { onError: (error) => log.error('event log retention failed:', error) },
  });
  // Disposing writes what is still pending.
  return { service: events, handlers: {}, dispose: () => events.dispose() };
}
