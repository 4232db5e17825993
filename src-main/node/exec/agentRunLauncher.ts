import type { ConsentGrant } from '../../../src-preload/contract';
import type { ConsentEngine } from '../consent/consentEngine';
import { DEFAULT_STAGED_WRITE_BYTES } from '../sandbox/native/launchPolicy';
import type { NativeSandbox, ResourceLimits } from '../sandbox/native/nativeSandbox';
import type { SessionService } from '../sessions/sessionService';
import { plainLauncher, type Launcher } from './launcher';
import { RUN_MARKER } from './runProcesses';

/** Agents act as `agent:<name>`; the user as `user`. */
export const AGENT_ACTOR_PREFIX = 'agent:';

export interface AgentRunLauncherOptions {
  sandbox: NativeSandbox;
  sessions: SessionService;
  consent: ConsentEngine;
  /** The agent's manifest resources, when it is installed. */
  resourcesOf(agentId: string): { cpuMillicores: number; memBytes: number } | undefined;
  /**
   * Bytes an agent's command may stage (its workspace writes, held until it succeeds); past it the run ends with a
   * `disk_quota` event. Default DEFAULT_STAGED_WRITE_BYTES (1 GiB).
   */
  stagedWriteBytes?: number;
  /** A plain run of the user's; tests may wrap it. */
  userLauncher?: Launcher;
}

function isLive(grant: ConsentGrant): boolean {
  return grant.status === 'live' && grant.expiresAt > Date.now();
}

/** Process and CPU-time caps every agent command gets on top of its manifest's memory and CPU share. */
const AGENT_PIDS = 256;
const AGENT_CPU_SECONDS = 3600;

/**
 * Chooses how a run is started: the user's commands run as asked (it is their machine), every command an agent runs
 * goes through the native sandbox (issue 5 §6): only the workspace writable, and its writes staged until the run
 * succeeds; no network unless the agent holds live `network` grants, and then only their domains, through the
 * allowlist proxy; the manifest's memory and CPU share; nothing of the host's environment but the run's mark.
 */
export function agentRunLauncher(options: AgentRunLauncherOptions): Launcher {
  const userLauncher = options.userLauncher ?? plainLauncher;
  return async (request) => {
    if (!request.actor.startsWith(AGENT_ACTOR_PREFIX)) return userLauncher(request);
    const agentId = request.actor.slice(AGENT_ACTOR_PREFIX.length);
    const { sessionId } = request;
    const workspace = options.sessions.get(sessionId).workspace;
    const live = options.consent
      .list(sessionId)
      .filter((grant) => grant.agentId === agentId && grant.capability === 'network' && isLive(grant) && grant.scope);
    const allowDomains = live.map((grant) => grant.scope!);
    const declared = options.resourcesOf(agentId);
    const resources: ResourceLimits = { pids: AGENT_PIDS, cpuSeconds: AGENT_CPU_SECONDS, stagedWriteBytes: options.stagedWriteBytes ?? DEFAULT_STAGED_WRITE_BYTES };
    if (declared) {
      resources.memBytes = declared.memBytes;
      resources.cpuMillicores = declared.cpuMillicores;
    }
    const env: Record<string, string> = { [RUN_MARKER]: request.runId };
    if (request.pty) env.TERM = 'xterm-256color';
    return options.sandbox.prepareLaunch({
      argv: request.argv,
      cwd: request.cwd,
      workspace,
      env,
      network:
        allowDomains.length === 0
          ? null
          : {
              allowDomains,
              // Checked at every request: a grant revoked or run out mid-run closes the door at once.
              stillGranted: () => live.some((grant) => options.consent.list(sessionId).some((now) => now.id === grant.id && isLive(now))),
            },
      resources,
      stageWrites: true,
      tty: request.pty,
      label: request.runId,
    });
  };
}
