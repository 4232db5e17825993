import { join } from 'node:path';
import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { ConsentEngine } from '../consent/consentEngine';
import type { UiConsentChannel } from '../consent/uiConsentChannel';
import type { NativeSandbox } from '../sandbox/native/nativeSandbox';
import type { CredentialServices } from '../vault/credentialServices';
import { acpAgentCredential } from './acpAgentCredential';
import { AcpAgentRegistry } from './acpAgentRegistry';
import { createAcpHandlers } from './acpHandlers';
import type { AcpProcessLauncher } from './acpProcess';
import { createAcpSandboxLauncher } from './acpSandboxLauncher';
import { AcpService, type AcpServiceOptions } from './acpService';

export interface AcpDeps extends Pick<AcpServiceOptions, 'db' | 'events' | 'ledger' | 'sessions' | 'consent' | 'exec' | 'turns'> {
  home: string;
  log: HostLog;
  actor: string;
  /** The UI's consent cards: an agent's request waits until someone watches them. */
  cards?: Pick<UiConsentChannel, 'whenWatched'>;
  /** The host's native sandbox (composeNativeSandbox's service); null where there is none. */
  sandbox: NativeSandbox | null;
  /** The vault: an agent reaches its provider only through the credential proxy (acpAgentCredential.ts). */
  credentials: CredentialServices;
  /**
   * Default: the sandboxed launcher (acpSandboxLauncher.ts), which runs an agent plain, with the filtered environment
   * of acpAgentEnv.ts and `unsandboxedReason` on the process, only where no sandbox is usable. Tests may plug in another.
   */
  launcher?: AcpProcessLauncher;
}

/** The host's default launcher: every ACP agent in the native sandbox, its provider only through the credential proxy. */
export function defaultAcpLauncher(deps: Pick<AcpDeps, 'home' | 'sandbox' | 'credentials' | 'ledger'> & { consent: ConsentEngine }): AcpProcessLauncher {
  return createAcpSandboxLauncher({
    sandbox: deps.sandbox,
    appHome: deps.home,
    credential: (request) => acpAgentCredential(deps.credentials, deps.consent, request, 'user'),
    onNetworkRequest: (event) =>
      deps.ledger.append({ type: 'exec.net_request', actor: 'host', payload: { runId: event.label ?? null, host: event.host, port: event.port, method: event.method, allowed: event.allowed, reason: event.reason } }),
  });
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
    launcher: deps.launcher ?? defaultAcpLauncher(deps),
    // Nothing of the host's environment is asked for: the sandboxed launcher builds the agent's (acpAgentEnv.ts).
    env: deps.launcher ? undefined : () => ({}),
    whenWatched: deps.cards ? (sessionId, signal) => deps.cards!.whenWatched(sessionId, signal) : undefined,
    onError: (error) => deps.log.error('acp:', error),
    turns: deps.turns,
  });
  const closing = deps.sessions.onDidClose(({ sessionId, actor }) => acp.stopSession(sessionId, actor));
  const counting = deps.sessions.registerRunning('agents', (sessionId) => acp.liveCount(sessionId));
  return {
    service: acp,
    handlers: createAcpHandlers(acp, deps.actor),
    async dispose() {
      counting.dispose();
      closing.dispose();
      await acp.dispose();
    },
  };
}

export const ACP_TEST_BIN = (root: string) => join(root, '.cache', 'acp-agents', 'node_modules', '.bin');
