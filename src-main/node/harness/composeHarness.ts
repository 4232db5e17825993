import { join } from 'node:path';
import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import { executablesFromEnv } from './sessions/harnessExecutables';
import { createHarnessHandlers } from './sessions/harnessHandlers';
import { HarnessSessionService, type HarnessSessionServiceOptions } from './sessions/harnessSessionService';

export interface HarnessDeps extends Pick<HarnessSessionServiceOptions, 'db' | 'ledger' | 'sessions' | 'terminals' | 'credentials' | 'consent' | 'turns'> {
  home: string;
  log: HostLog;
  actor: string;
}

/** Claude Code / Codex CLI sessions: launched through the credential proxy, resumable after a restart, stopped with their session. */
export function composeHarness(deps: HarnessDeps): AreaComposition<HarnessSessionService, ReturnType<typeof createHarnessHandlers>> {
  const { db, ledger, sessions, terminals, credentials, consent, turns, log } = deps;
  const harness = new HarnessSessionService({ db, ledger, sessions, terminals, credentials, consent, turns, aspHome: join(deps.home, 'harness'), executables: executablesFromEnv(), onError: (error) => log.error('harness:', error) });
  const closing = sessions.onDidClose(({ sessionId, actor }) => harness.stopSession(sessionId, actor));
  const counting = sessions.registerRunning('agents', (sessionId) => harness.headlessLiveCount(sessionId));
  return {
    service: harness,
    handlers: createHarnessHandlers(harness, deps.actor),
    async dispose() {
      counting.dispose();
      closing.dispose();
      await harness.dispose();
    },
  };
}
