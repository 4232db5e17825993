import type { CheckpointResumer } from '../metaShell/checkpointResumer';
import type { CheckpointStore } from '../metaShell/checkpointStore';
import { MetaState } from '../metaShell/metaState';
import type { ProgressLevel, ProgressLog } from '../metaShell/progressLog';
import type { SessionState } from '../metaShell/sessionState';
import type { SpawnAgent } from '../metaShell/spawnAgentTypes';
import type { TurnRecorder } from '../../changes/turnRecorder';
import type { Ledger } from '../../ledger/ledger';
import { DIRTY_TREE_COMMIT_MESSAGE } from '../../../../src-preload/contract/goal';
import { callAgent, type AgentCallDeps, type AgentCallRequest } from './agentCall';
import { CONTEXT_SOURCE } from './contextPlan';
import { patchRecord, readRecord } from './goalRunRecord';
import type { OrchestratorConfig } from './orchestratorConfig';
import { PlanError, type PlannedTask } from './plannedTask';
import { choosePlanner } from './planners';
import { describeTask, EXECUTOR_SYSTEM_PROMPT, VERIFIER_SYSTEM_PROMPT } from './rolePrompts';
import { RunHaltedError, throwIfHalted } from './runHalted';
import { buildStatePrompt, phaseFromContext } from './statePrompt';
import { nextStep } from './taskGraph';
import { readVerdict } from './verdict';
import { DirtyTreeError } from './dirtyTree';
import { WorkspaceGit } from './workspaceGit';

/** What a run tells the service as it goes (the service turns it into GoalRunViews). */
export interface RunObserver {
  state(state: SessionState): void;
  activity(change: { phase?: 'running' | 'waiting_checkpoint'; activeTaskId?: string | null; planner?: 'deterministic' | 'llm' }): void;
}

export interface GoalRunDeps {
  config: OrchestratorConfig;
  spawnAgent: SpawnAgent;
  checkpoints: CheckpointStore;
  resumer: CheckpointResumer;
  progress: ProgressLog;
  ledger: Ledger;
  turns?: TurnRecorder;
}

/** MetaState whose every update_state is reported, so the view follows session.json step by step. */
class ObservedMetaState extends MetaState {
  constructor(
    workspace: string,
    private readonly observer: RunObserver,
  ) {
    super(workspace);
  }
  override async updateState(key: string, value: unknown, lockTimeoutMs?: number): Promise<SessionState> {
    const state = await super.updateState(key, value, lockTimeoutMs);
    this.observer.state(state);
    return state;
  }
}

/**
 * One goal run of one session, from where session.json says it is to the end or a stop: planning (if there is no
 * plan), then each ready task in dependency order: execute (spawn_agent), commit, verify (spawn_agent), with the
 * circuit breaker on failed verifications. Every status change goes through update_state, every step to log_progress.
 * It never throws: a halt or an error ends it with status "halted" and the reason in variables.goalRun.stopped.
 */
export class GoalRunLoop {
  private readonly meta: ObservedMetaState;
  private readonly git: WorkspaceGit;

  constructor(
    private readonly deps: GoalRunDeps,
    private readonly sessionId: string,
    workspace: string,
    private readonly signal: AbortSignal,
    private readonly observer: RunObserver,
    /** Who halted (set by the service before it aborts), for the log. */
    private readonly haltedBy: () => string,
    /** What the user answered to "the workspace has uncommitted changes" (Orchestrator asked before the run). */
    private readonly dirtyTree?: 'commit' | 'stash',
  ) {
    this.meta = new ObservedMetaState(workspace, observer);
    this.git = new WorkspaceGit(workspace);
  }

  async run(): Promise<void> {
    try {
      let state = await this.meta.initialize({ sessionId: this.sessionId });
      this.observer.state(state);
      if (readRecord(state).stopped) await patchRecord(this.meta, (r) => delete r.stopped);
      // The plan before git: a plan that fails leaves the user's repository as it was.
      if (!state.plan) await this.plan();
      if ((await this.git.ensureRepo()).created) this.log('Initialised a git repository in the workspace (each task is committed to it)');
      await this.setAsideUserWork();
      for (;;) {
        throwIfHalted(this.signal);
        state = (await this.meta.read())!;
        const step = nextStep(state.plan!.tasks);
        if (step.kind === 'done') {
          await this.meta.updateState('plan.currentTaskIdx', state.plan!.tasks.length);
          this.observer.activity({ activeTaskId: null });
          this.log(`All ${state.plan!.tasks.length} tasks complete`);
          return;
        }
        if (step.kind === 'blocked') return await this.stop('failed', step.reason);
        if ((await this.runTask(step.index)) === 'stop') return;
      }
    } catch (error) {
      if (error instanceof RunHaltedError) return this.stopQuietly('halted', `Halted by ${this.haltedBy()}`);
      return this.stopQuietly('failed', error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * The user's uncommitted work, as they answered (never without an answer): committed with the message the UI
   * showed, or stashed. Work that appeared after the question (nothing to answer for) stops the run instead.
   */
  private async setAsideUserWork(): Promise<void> {
    if (!(await this.git.isDirty())) return;
    if (this.dirtyTree === 'commit') {
      const commit = await this.git.commitAll(DIRTY_TREE_COMMIT_MESSAGE);
      if (commit) this.log(`Committed your uncommitted changes as you chose (${commit.slice(0, 10)} "${DIRTY_TREE_COMMIT_MESSAGE}"); it belongs to no task`);
      this.deps.ledger.append({ type: 'goal.dirty_tree', actor: 'host', sessionId: this.sessionId, payload: { answer: 'commit', commit } });
      return;
    }
    if (this.dirtyTree === 'stash') {
      const stash = await this.git.stash(`Omniscient Shell: before the goal run of session ${this.sessionId}`);
      if (stash) this.log(`Stashed your uncommitted changes as you chose (${stash.slice(0, 10)}); "git stash pop" brings them back`);
      this.deps.ledger.append({ type: 'goal.dirty_tree', actor: 'host', sessionId: this.sessionId, payload: { answer: 'stash', stash } });
      return;
    }
    const files = await this.git.dirtyFiles();
    throw new DirtyTreeError(files, files.length);
  }

  private async plan(): Promise<void> {
    let state = await this.meta.updateState('status', 'planning');
    const context = this.meta.readContext();
    if (!context) throw new PlanError(CONTEXT_SOURCE, 'does not exist; write the goal there (and, to plan it yourself, a "## Plan" section; see docs/orchestrator.md), then run again');
    const phase = phaseFromContext(context.text);
    if (phase !== null && phase !== state.currentPhase) state = await this.meta.updateState('currentPhase', phase);
    const planner = choosePlanner(this.deps.config.planner, context.text, this.deps.config.agents.planner);
    await patchRecord(this.meta, (r) => (r.planner = planner.kind));
    this.observer.activity({ phase: 'running', planner: planner.kind, activeTaskId: null });
    this.log(planner.kind === 'deterministic' ? 'Planning from the "## Plan" section of .meta/context.md' : `Planning with the agent "${this.deps.config.agents.planner}"`);
    const tasks = await planner.plan({ context: context.text, statePrompt: buildStatePrompt(state, context.text), call: (request) => this.call(request), options: this.options('smart') });
    throwIfHalted(this.signal);
    await this.meta.updateState('plan', { tasks: tasks.map((t) => ({ id: t.id, title: t.title, status: 'pending', dependencies: t.dependencies, commits: [] })), currentTaskIdx: 0 });
    await patchRecord(this.meta, (r) => {
      r.details = Object.fromEntries(tasks.map((t) => [t.id, { agent: t.agent, verifier: t.verifier, instructions: t.instructions }]));
    });
    this.deps.ledger.append({ type: 'goal.plan', actor: 'host', sessionId: this.sessionId, payload: { planner: planner.kind, tasks: tasks.map((t) => ({ id: t.id, title: t.title, dependencies: t.dependencies })) } });
    this.log(`Plan: ${tasks.map((t) => `${t.id} ${t.title}${t.dependencies.length ? ` (after ${t.dependencies.join(', ')})` : ''}`).join('; ')}`);
  }

  /** Executes, commits and verifies the task at `index`; "stop" when the run ended (failure or circuit breaker). */
  private async runTask(index: number): Promise<'continue' | 'stop'> {
    await this.meta.updateState('plan.currentTaskIdx', index);
    const before = (await this.meta.read())!;
    const record = readRecord(before);
    const stored = before.plan!.tasks[index];
    const task: PlannedTask = { id: stored.id, title: stored.title, dependencies: stored.dependencies, ...stripUndefined(record.details[stored.id] ?? {}) };
    this.observer.activity({ phase: 'running', activeTaskId: task.id });
    // A verifier's question the run was waiting on when it stopped: the task was executed and committed already.
    const verifyOnly = record.checkpoint?.role === 'verifier' && record.checkpoint.taskId === task.id;
    if (!verifyOnly) {
      const state = await this.meta.updateState('status', 'executing');
      const agent = task.agent ?? this.deps.config.agents.executor;
      this.log(`Task ${task.id}: executing "${task.title}" with the agent "${agent}"`);
      const response = await this.call({ role: 'executor', taskId: task.id, agent, systemPrompt: EXECUTOR_SYSTEM_PROMPT, userMessage: this.message(state, task, record.guidance[task.id]), options: this.options('smart') });
      if (response.status !== 'success') {
        await this.meta.updateState(`plan.tasks.${index}.status`, 'failed');
        await this.stop('failed', `Task ${task.id}: the agent "${agent}" ended with "${response.status}": ${excerpt(response.data)}`);
        return 'stop';
      }
      await this.commitTask(index, task, agent);
    }
    return this.verifyTask(index, task);
  }

  private async commitTask(index: number, task: PlannedTask, agent: string): Promise<void> {
    const commit = await this.git.commitAll(`Task ${task.id}: ${task.title}\n\nGoal run of session ${this.sessionId}, executed by the agent "${agent}".`);
    if (!commit) return this.log(`Task ${task.id}: the agent changed no files; nothing to commit`);
    const commits = [...((await this.meta.read())!.plan!.tasks[index].commits ?? []), commit];
    await this.meta.updateState(`plan.tasks.${index}.commits`, commits);
    this.deps.ledger.append({ type: 'goal.task_commit', actor: 'host', sessionId: this.sessionId, payload: { taskId: task.id, commit } });
    this.log(`Task ${task.id}: committed ${commit.slice(0, 10)}`);
  }

  private async verifyTask(index: number, task: PlannedTask): Promise<'continue' | 'stop'> {
    const state = await this.meta.updateState('status', 'verifying');
    const verifier = task.verifier ?? this.deps.config.agents.verifier;
    let verdict = { passed: true, gaps: '' };
    if (verifier === 'none') this.log(`Task ${task.id}: not verified (verifier: none)`);
    else {
      this.log(`Task ${task.id}: verifying with the agent "${verifier}"`);
      verdict = readVerdict(await this.call({ role: 'verifier', taskId: task.id, agent: verifier, systemPrompt: VERIFIER_SYSTEM_PROMPT, userMessage: this.message(state, task, undefined), options: this.options('fast') }));
    }
    if (verdict.passed) {
      await this.meta.updateState(`plan.tasks.${index}.status`, 'complete');
      if (state.gapCount !== 0) await this.meta.updateState('gapCount', 0);
      await patchRecord(this.meta, (r) => delete r.guidance[task.id]);
      this.log(`Task ${task.id}: complete`);
      return 'continue';
    }
    const gapCount = state.gapCount + 1;
    await this.meta.updateState('gapCount', gapCount);
    await patchRecord(this.meta, (r) => (r.guidance[task.id] = verdict.gaps));
    const threshold = this.deps.config.gapThreshold;
    this.log(`Task ${task.id}: verification failed (${gapCount} of ${threshold} before the circuit breaker halts): ${excerpt(verdict.gaps)}`, 'warn');
    if (gapCount < threshold) return 'continue';
    await this.tripBreaker(index, task, gapCount, verdict.gaps);
    return 'stop';
  }

  /** gapCount reached the threshold: the task is marked failed, the run halts, and the user is asked to step in. */
  private async tripBreaker(index: number, task: PlannedTask, gapCount: number, gaps: string): Promise<void> {
    await this.meta.updateState(`plan.tasks.${index}.status`, 'failed');
    const trips = readRecord(await this.meta.read()).breakerTrips + 1;
    const resumeId = `circuit_breaker.${task.id}.${trips}`;
    const message = `Verification of task ${task.id} "${task.title}" failed ${gapCount} times in a row. Last gaps:\n${gaps}\nFix the workspace or write guidance for the executor, then resume the run.`;
    this.deps.checkpoints.raise(this.sessionId, { type: 'checkpoint', reason: 'human_action', message, options: [], resume_id: resumeId }, null);
    await patchRecord(this.meta, (r) => {
      r.breakerTrips = trips;
      r.checkpoint = { resumeId, agent: 'host', role: 'breaker', taskId: task.id };
    });
    await this.stop('halted', `Circuit breaker: verification of task ${task.id} failed ${gapCount} times in a row; answer the checkpoint "${resumeId}" and resume`);
  }

  private async stop(kind: 'halted' | 'failed', message: string): Promise<void> {
    await this.meta.updateState('status', 'halted');
    await patchRecord(this.meta, (r) => (r.stopped = { kind, message }));
    this.log(message, kind === 'failed' ? 'error' : 'warn');
  }

  /** stop() for the catch-all: a run that cannot even write its state (locked, corrupt) still ends and says why. */
  private async stopQuietly(kind: 'halted' | 'failed', message: string): Promise<void> {
    try {
      await this.stop(kind, message);
    } catch (error) {
      this.log(`${message} (and the state could not be written: ${error instanceof Error ? error.message : String(error)})`, 'error');
    }
  }

  private call(request: AgentCallRequest) {
    const deps: AgentCallDeps = {
      sessionId: this.sessionId,
      spawnAgent: this.deps.spawnAgent,
      checkpoints: this.deps.checkpoints,
      resumer: this.deps.resumer,
      progress: this.deps.progress,
      meta: this.meta,
      signal: this.signal,
      answerPollMs: this.deps.config.answerPollMs,
      onWaiting: (waiting) => this.observer.activity({ phase: waiting ? 'waiting_checkpoint' : 'running' }),
      turns: this.deps.turns,
    };
    return callAgent(deps, request);
  }

  /** The spec's state prompt (from session.json and context.md as they are now) followed by the task. */
  private message(state: SessionState, task: PlannedTask, guidance: string | undefined): string {
    return `${buildStatePrompt(state, this.meta.readContext()?.text ?? null)}\n\n${describeTask(task, guidance)}`;
  }

  private options(model_hint: 'fast' | 'smart') {
    return { model_hint, ...(this.deps.config.timeoutSeconds === undefined ? {} : { timeout_seconds: this.deps.config.timeoutSeconds }) };
  }

  private log(message: string, level: ProgressLevel = 'info'): void {
    this.deps.progress.log(this.sessionId, message, level);
  }
}

const excerpt = (text: string): string => (text.length > 500 ? `${text.slice(0, 500)}…` : text || '(no output)');

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
