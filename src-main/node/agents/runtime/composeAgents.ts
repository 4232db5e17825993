import type { AreaComposition } from '../../base/areaComposition';
import type { TurnRecorder } from '../../changes/turnRecorder';
import type { ConsentEngine } from '../../consent/consentEngine';
import type { ExecService } from '../../exec/execService';
import type { Ledger } from '../../ledger/ledger';
import { modelConfigPath } from '../../llm';
import type { NativeSandbox } from '../../sandbox/native/nativeSandbox';
import { AgentStore } from '../../sandbox/wasm/agentStore';
import { WasmSandbox } from '../../sandbox/wasm/wasmSandbox';
import type { SessionService } from '../../sessions/sessionService';
import type { EventLog } from '../../eventlog/eventLog';
import type { Database } from '../../store/database';
import type { SecretScrubber } from '../../vault/secretScrubber';
import type { CredentialServices } from '../../vault/credentialServices';
import type { AgentRegistry } from '../registry/agentRegistry';
import { createAgentHandlers } from './agentHandlers';
import { AgentRunLog } from './agentRunLog';
import { AgentRuntime } from './agentRuntime';
import { stepTimeoutFromEnv } from './stepTimeoutSetting';

export interface AgentsDeps {
  home: string;
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  consent: ConsentEngine;
  registry: AgentRegistry;
  exec: ExecService;
  nativeSandbox: NativeSandbox;
  credentials: CredentialServices;
  actor: string;
  /** The session's changes: each agent run is recorded as a turn. */
  turns?: TurnRecorder;
  /** The sessions' event log: each run's events are kept there (scrubbed), so its card survives a restart. */
  events?: EventLog;
  scrubber?: SecretScrubber;
}

/**
 * Agents at work: WASM modules in their sandbox (its shell tool is the session's process runs, its credentials the
 * vault's injector), native programs in the OS sandbox, model-backed agents. Watcher events of the session's runs
 * reach its next agent turn (spec shell-exec-actions: steer backlog).
 */
export function composeAgents(deps: AgentsDeps): AreaComposition<AgentRuntime, ReturnType<typeof createAgentHandlers>> {
  const { db, ledger, consent, exec, credentials } = deps;
  const audit = (entry: Parameters<Ledger['append']>[0]) => ledger.append(entry);
  const runLog = deps.events && deps.scrubber ? new AgentRunLog(db, deps.events, deps.scrubber) : undefined;
  // Runs an earlier host left going (it crashed or was killed) are over: say so in the log before anyone lists them.
  runLog?.closeLost(Date.now());
  const agents = new AgentRuntime({
    registry: deps.registry,
    sessions: deps.sessions,
    ledger,
    sandbox: () =>
      new WasmSandbox({ consent, store: new AgentStore(db), audit, warmProcesses: 1, shell: (request, caller) => exec.shell(request, caller), credentials: credentials.injector }),
    native: { sandbox: () => deps.nativeSandbox, consent },
    credentials,
    llm: { consent, modelConfigFile: modelConfigPath(deps.home), store: new AgentStore(db), audit },
    takeBacklog: (sessionId) => exec.takeBacklog(sessionId).map((message) => message.text),
    turns: deps.turns,
    runLog,
    stepDeadlineMs: stepTimeoutFromEnv(),
  });
  // A closed session keeps nothing running: its agent runs stop with its terminals and process runs, and the close is
  // answered once they have ended.
  const liveRuns = (sessionId: string) => agents.runsOf(sessionId).filter((info) => info.endedAt === null);
  const closing = deps.sessions.onDidClose(({ sessionId, actor }) => Promise.all(liveRuns(sessionId).map((info) => stopAndWait(agents, info.id, actor))).then(() => undefined));
  const counting = deps.sessions.registerRunning('agents', (sessionId) => liveRuns(sessionId).length);
  return {
    service: agents,
    handlers: createAgentHandlers(agents, deps.actor),
    dispose: () => {
      counting.dispose();
      closing.dispose();
      agents.dispose();
    },
  };
}

/** Stops a run and resolves once it has ended (its process gone, its `ended` event written). */
function stopAndWait(agents: AgentRuntime, runId: string, actor: string): Promise<void> {
  const run = agents.get(runId);
  if (run.ended) return Promise.resolve();
  return new Promise((resolve) => {
    const listening = run.onDidAppend((event) => {
      if (event.kind !== 'ended') return;
      listening.dispose();
      resolve();
    });
    agents.stop(runId, actor);
    if (run.ended) {
      listening.dispose();
      resolve();
    }
  });
}
