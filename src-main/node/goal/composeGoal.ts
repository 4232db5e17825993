import type { AreaComposition } from '../base/areaComposition';
import type { AgentRuntime } from '../agents/runtime/agentRuntime';
import type { EventLog } from '../eventlog/eventLog';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { createGoalHandlers } from './goalHandlers';
import { CheckpointStore, ContextRecorder, ProgressLog } from './metaShell';
import { SpawnAgentService } from './metaShell/spawnAgent';
import type { GoalRunService } from './orchestrator/goalRunTypes';
import { Orchestrator } from './orchestrator/orchestrator';

export interface GoalDeps {
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  events: EventLog;
  agents: AgentRuntime;
  scrubber: SecretScrubber;
  actor: string;
}

/** The goal feature's parts, one of each for spawn_agent, the orchestrator and the goal view. */
export interface GoalServices {
  /** The Meta-Shell protocol's durable core (docs/meta-shell-protocol.md): checkpoints, log_progress, context.md in the ledger. */
  checkpoints: CheckpointStore;
  progress: ProgressLog;
  contextRecorder: ContextRecorder;
  /** spawn_agent: `spawnAgent.spawn(...)`, its checkpoints' resume and wait. */
  spawnAgent: SpawnAgentService;
  /** Goal runs (plan, execute, verify, halt, resume, rollback) per session (docs/orchestrator.md). */
  goalRuns: GoalRunService;
}

/**
 * spawn_agent over the agent runtime, raising checkpoints in the same store the goal view answers; goal runs over
 * spawn_agent, resuming checkpoints through the same resumer, so each resumes once whoever asks. Answers and progress
 * lines are free text: scrubbed before SQLite, the ledger or the UI sees them.
 */
export function composeGoal(deps: GoalDeps): AreaComposition<GoalServices, ReturnType<typeof createGoalHandlers>> {
  const { db, ledger, sessions, scrubber } = deps;
  const progress = new ProgressLog({ events: deps.events, scrub: (text) => scrubber.scrubText(text) });
  const checkpoints = new CheckpointStore(db, { ledger, scrub: (answer) => scrubber.scrubPayload({ answer }).answer });
  const contextRecorder = new ContextRecorder(db, ledger);
  const spawnAgent = new SpawnAgentService({ runtime: deps.agents, checkpoints, audit: (entry) => ledger.append(entry), progress });
  const goalRuns = new Orchestrator({ spawnAgent: spawnAgent.spawn, workspaceOf: (id) => sessions.get(id).workspace, checkpoints, resumer: spawnAgent.resumer, progress, ledger });
  return {
    service: { checkpoints, progress, contextRecorder, spawnAgent, goalRuns },
    handlers: createGoalHandlers({ db, sessions, events: deps.events, checkpoints, progress, contextRecorder, goalRuns }, deps.actor),
    async dispose() {
      // Running goal runs are halted (status halted in session.json), so Resume continues them after the restart.
      await goalRuns.dispose();
      progress.dispose();
    },
  };
}
