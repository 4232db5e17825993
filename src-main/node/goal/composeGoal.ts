import type { AreaComposition } from '../base/areaComposition';
import type { TurnRecorder } from '../changes/turnRecorder';
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
import { gitInfo } from '../worktrees/worktreeGit';
import { DomainError } from '../base/domainError';

export interface GoalDeps {
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  events: EventLog;
  agents: AgentRuntime;
  scrubber: SecretScrubber;
  actor: string;
  /** The session's changes: each goal task's agent call is a turn. */
  turns?: TurnRecorder;
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
  // "Run in a new worktree": a worktree session on the same repository, from the branch checked out there now.
  const newWorktreeSession = async (sessionId: string, actor: string): Promise<string> => {
    const session = sessions.get(sessionId);
    const info = await gitInfo(session.workspace);
    if (!info.current) throw new DomainError('state', `${session.workspace} has no branch checked out (a detached HEAD): switch to a branch, or commit or stash the changes instead`);
    return (await sessions.createInWorktree(session.workspace, `${session.name} goal`, info.current, actor)).id;
  };
  const goalRuns = new Orchestrator({ spawnAgent: spawnAgent.spawn, workspaceOf: (id) => sessions.get(id).workspace, checkpoints, resumer: spawnAgent.resumer, progress, ledger, turns: deps.turns, newWorktreeSession });
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
