import { join } from 'node:path';
import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { UiConsentChannel } from '../consent/uiConsentChannel';
import { AcpAgentRegistry } from './acpAgentRegistry';
import { createAcpHandlers } from './acpHandlers';
import { AcpPlainLauncher } from './acpPlainLauncher';
import type { AcpProcessLauncher } from './acpProcess';
import { AcpService, type AcpServiceOptions } from './acpService';

export interface AcpDeps extends Pick<AcpServiceOptions, 'db' | 'events' | 'ledger' | 'sessions' | 'consent' | 'exec'> {
  home: string;
  log: HostLog;
  actor: string;
  /** The UI's consent cards: an agent's request waits until someone watches them. */
  cards?: Pick<UiConsentChannel, 'whenWatched'>;
  /** Default: the plain launcher (the sandboxed one, acpSandboxLauncher.ts, plugs in here). */
  launcher?: AcpProcessLauncher;
}

/**
 * ACP agents (docs/acp.md): the registry, the conversations, their handlers. Test runs find the adapters the test
 * suite installed (.cache/acp-agents) through OMNI_ACP_AGENTS_BIN. A closed session stops its conversations.
 */
export function composeAcp(deps: AcpDeps): AreaComposition<AcpService, ReturnType<typeof createAcpHandlers>> {
  const binDirs = process.env.OMNI_ACP_AGENTS_BIN ? process.env.OMNI_ACP_AGENTS_BIN.split(':').filter((d) => d !== '') : [];
  const registry = new AcpAgentRegistry({ home: deps.home, binDirs });
  const acp = new AcpService({
    home: deps.home,
    db: deps.db,
    events: deps.events,
    ledger: deps.ledger,
    sessions: deps.sessions,
    consent: deps.consent,
    exec: deps.exec,
    registry,
    launcher: deps.launcher ?? new AcpPlainLauncher(),
    whenWatched: deps.cards ? (sessionId, signal) => deps.cards!.whenWatched(sessionId, signal) : undefined,
    onError: (error) => deps.log.error('acp:', error),
  });
  const closing = deps.sessions.onDidClose(({ sessionId, actor }) => acp.stopSession(sessionId, actor));
  return {
    service: acp,
    handlers: createAcpHandlers(acp, deps.actor),
    async dispose() {
      closing.dispose();
      await acp.dispose();
    },
  };
}

export const ACP_TEST_BIN = (root: string) => join(root, '.cache', 'acp-agents', 'node_modules', '.bin');
