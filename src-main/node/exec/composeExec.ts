import type { AreaComposition } from '../base/areaComposition';
import type { HostLog } from '../base/hostLog';
import type { TurnRecorder } from '../changes/turnRecorder';
import type { AgentRegistry } from '../agents/registry/agentRegistry';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import type { NativeSandbox } from '../sandbox/native/nativeSandbox';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { agentRunLauncher } from './agentRunLauncher';
import { createExecHandlers } from './execHandlers';
import { ExecService } from './execService';

export interface ExecDeps {
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  consent: ConsentEngine;
  sandbox: NativeSandbox;
  registry: AgentRegistry;
  scrubber: SecretScrubber;
  log: HostLog;
  actor: string;
  /** The session's changes: a run an agent asked for is a turn of its own (the user's own runs are not). */
  turns?: TurnRecorder;
}

/**
 * Process runs (the shell tool): the user's run as asked, an agent's inside the native sandbox with its manifest's
 * resources. Runs the previous host left running are recovered at once; a closed session's runs are killed.
 */
export function composeExec(deps: ExecDeps): AreaComposition<ExecService, ReturnType<typeof createExecHandlers>> {
  const { db, ledger, sessions, consent, sandbox, registry, scrubber, log } = deps;
  const exec = new ExecService(db, ledger, {
    launcher: agentRunLauncher({ sandbox, sessions, consent, resourcesOf: (agentId) => registry.get(agentId)?.manifest.resources }),
    onError: (error) => log.error('exec:', error),
    scrubber,
    recordTurn: (run) => (run.actor === deps.actor || !deps.turns ? null : deps.turns.beginTurn(run.session_id, { kind: 'shell_run', id: run.run_id }, run.actor, commandTitle(run.argv))),
  });
  const started = exec.start().catch((error: unknown) => log.error('exec recovery failed:', error));
  const closing = sessions.onDidClose(({ sessionId, actor }) => exec.killSessionRuns(sessionId, actor));
  const counting = sessions.registerRunning('runs', (sessionId) => exec.openRunCount(sessionId));
  return {
    service: exec,
    handlers: createExecHandlers(exec, sessions, sandbox, deps.actor),
    async dispose() {
      counting.dispose();
      closing.dispose();
      await started;
      // Running processes end with the host; their runs stay `running` and are recovered at the next start.
      await exec.dispose();
    },
  };
}

/** A run's command as its turn's title: the script of `sh -c <script>` (what the agent wrote), else the argv. */
const commandTitle = (argv: readonly string[]): string => (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]) && argv[1] === '-c' ? argv[2] : argv.join(' '));
