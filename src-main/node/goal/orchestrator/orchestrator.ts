import type { TurnRecorder } from '../../changes/turnRecorder';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import type { DirtyTreeAnswer } from '../../../../src-preload/contract/goal';
import { DomainError } from '../../base/domainError';
import { KeyedQueue } from '../../base/keyedQueue';
import { Emitter, type Disposable } from '../../../../src-preload/rpc';
import { CheckpointResumer } from '../metaShell/checkpointResumer';
import type { CheckpointStore } from '../metaShell/checkpointStore';
import { metaPaths, readMetaFile } from '../metaShell/metaFiles';
import { MetaState } from '../metaShell/metaState';
import type { ProgressLog } from '../metaShell/progressLog';
import { parseSessionState, type SessionState } from '../metaShell/sessionState';
import type { SpawnAgent } from '../metaShell/spawnAgentTypes';
import type { Ledger } from '../../ledger/ledger';
import { CONTEXT_SOURCE, hasContextPlan, parseContextPlan } from './contextPlan';
import { checkDirtyTree } from './dirtyTree';
import { GoalRunLoop } from './goalRunLoop';
import { readRecord } from './goalRunRecord';
import type { GoalRunService, GoalRunView, PlanCheck, RollbackResult, TaskCommitView } from './goalRunTypes';
import { prepareResume } from './haltedRunResume';
import { resolveConfig, type OrchestratorConfig } from './orchestratorConfig';
import { PlanError } from './plannedTask';
import { choosePlanner } from './planners';
import { rollbackTask } from './taskRollback';
import { GitCommandError, WorkspaceGit } from './workspaceGit';

export interface OrchestratorOptions {
  /** spawn_agent (goal/metaShell/spawnAgent.ts in the app; a scripted stand-in for the LLM in tests). */
  spawnAgent: SpawnAgent;
  /** The session's workspace folder (SessionService.get(id).workspace); throws for an unknown session. */
  workspaceOf: (sessionId: string) => string;
  checkpoints: CheckpointStore;
  /** Defaults to a CheckpointResumer on `checkpoints`. */
  resumer?: CheckpointResumer;
  progress: ProgressLog;
  ledger: Ledger;
  config?: Parameters<typeof resolveConfig>[0];
  /**
   * A new worktree session on the session's repository, from its current branch (the "run in a new worktree" answer
   * to a dirty tree); its id. Absent: that answer is refused.
   */
  newWorktreeSession?: (sessionId: string, actor: string) => Promise<string>;
  /** The session's changes: each task's agent call is recorded as a turn. */
  turns?: TurnRecorder;
}

/** A task commit's patch is cut here: the board shows it, a huge generated file need not cross the bridge whole. */
const MAX_PATCH_CHARS = 2_000_000;

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
  haltedBy: string;
  phase: 'running' | 'waiting_checkpoint';
  activeTaskId: string | null;
}

/**
 * GoalRunService: one goal run per session at a time (see docs/orchestrator.md). The run's truth is session.json
 * (statuses, tasks, commits, gapCount) and variables.goalRun (why it stopped, the checkpoint it waits on), so after
 * a restart view() and resume() pick up where the files say.
 */
export class Orchestrator implements GoalRunService, Disposable {
  readonly config: OrchestratorConfig;
  private readonly resumer: CheckpointResumer;
  private readonly runs = new Map<string, ActiveRun>();
  private readonly queue = new KeyedQueue();
  private readonly views = new Map<string, GoalRunView>();
  private readonly changed = new Emitter<GoalRunView>();

  constructor(private readonly options: OrchestratorOptions) {
    this.config = resolveConfig(options.config);
    this.resumer = options.resumer ?? new CheckpointResumer(options.checkpoints);
  }

  start(sessionId: string, actor: string, dirtyTree?: DirtyTreeAnswer): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.startNow(sessionId, actor, dirtyTree));
  }

  halt(sessionId: string, actor: string): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.haltNow(sessionId, actor));
  }

  resume(sessionId: string, actor: string, dirtyTree?: DirtyTreeAnswer): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.resumeNow(sessionId, actor, dirtyTree));
  }

  rollback(sessionId: string, taskId: string, actor: string): Promise<RollbackResult> {
    return this.oneAtATime(sessionId, () => this.rollbackNow(sessionId, taskId, actor));
  }

  private async startNow(sessionId: string, actor: string, dirtyTree: DirtyTreeAnswer | undefined): Promise<GoalRunView> {
    if (this.runs.has(sessionId)) return this.view(sessionId);
    const state = await this.meta(sessionId).read();
    if (state?.status === 'halted') return this.resumeNow(sessionId, actor, dirtyTree);
    if (state?.plan && state.plan.tasks.every((t) => t.status === 'complete')) return this.refresh(sessionId);
    // The plan first, git after: a goal with no usable plan fails before anything of the user's is touched.
    if (!state?.plan) this.checkPlanSource(sessionId);
    const tree = await checkDirtyTree(new WorkspaceGit(this.options.workspaceOf(sessionId)), dirtyTree);
    if (tree === 'worktree') return this.startInWorktree(sessionId, actor);
    this.options.ledger.append({ type: 'goal.start', actor, sessionId, payload: tree === 'clean' ? {} : { dirtyTree: tree } });
    this.options.progress.log(sessionId, `Goal run started by ${actor}`);
    return this.launch(sessionId, tree === 'clean' ? undefined : tree);
  }

  /**
   * What planning will read, checked without running anything: context.md exists and, when the user wrote the plan
   * there, it parses into a valid task graph (PlanError says which line is wrong). An LLM planner's answer is checked
   * when it comes, still before the run touches git (GoalRunLoop.run).
   */
  private checkPlanSource(sessionId: string): void {
    const context = this.meta(sessionId).readContext();
    if (!context) throw new PlanError(CONTEXT_SOURCE, 'does not exist; write the goal there (and, to plan it yourself, a "## Plan" section; see docs/orchestrator.md), then run again');
    if (choosePlanner(this.config.planner, context.text, this.config.agents.planner).kind === 'deterministic') parseContextPlan(context.text);
  }

  /**
   * The same check as Run's (checkPlanSource), on text not yet saved: which planner Run would use and, for the
   * deterministic one, the number of tasks or the PlanError's words and line. An LLM plan cannot be checked before
   * the planner answers, so it has no problem here.
   */
  checkPlan(text: string): PlanCheck {
    const planner = choosePlanner(this.config.planner, text, this.config.agents.planner).kind;
    if (planner !== 'deterministic') return { planner: 'llm', tasks: 0, problem: null };
    try {
      return { planner, tasks: parseContextPlan(text).length, problem: null };
    } catch (error) {
      if (!(error instanceof PlanError)) throw error;
      return { planner, tasks: 0, problem: { message: error.message, line: error.line ?? null } };
    }
  }

  /**
   * The "run in a new worktree" answer: a new worktree session on the same repository (from its current branch, so
   * the user's uncommitted files stay where they are, untouched), the goal (context.md) copied there, and the run
   * started in it. The answer is that session's view.
   */
  private async startInWorktree(sessionId: string, actor: string): Promise<GoalRunView> {
    if (!this.options.newWorktreeSession) throw new DomainError('unavailable', 'this host cannot make worktree sessions; commit or stash the changes instead');
    const created = await this.options.newWorktreeSession(sessionId, actor);
    const from = metaPaths(this.options.workspaceOf(sessionId)).context;
    const to = metaPaths(this.options.workspaceOf(created));
    if (existsSync(from)) {
      mkdirSync(to.dir, { recursive: true });
      copyFileSync(from, to.context);
    }
    this.options.progress.log(sessionId, `The workspace had uncommitted changes: the goal runs in the new worktree session ${created} instead`);
    return this.start(created, actor);
  }

  private async haltNow(sessionId: string, actor: string): Promise<GoalRunView> {
    const run = this.runs.get(sessionId);
    this.options.ledger.append({ type: 'goal.halt', actor, sessionId, payload: { running: run !== undefined } });
    if (run) {
      run.haltedBy = actor;
      run.controller.abort();
      await run.done;
      return this.view(sessionId);
    }
    const meta = this.meta(sessionId);
    const state = await meta.read();
    if (state && state.status !== 'halted') {
      await meta.updateState('status', 'halted');
      await meta.updateState('variables.goalRun', { ...readRecord(state), stopped: { kind: 'halted', message: `Halted by ${actor}` } });
      this.options.progress.log(sessionId, `Halted by ${actor}`, 'warn');
    }
    return this.refresh(sessionId);
  }

  private async resumeNow(sessionId: string, actor: string, dirtyTree: DirtyTreeAnswer | undefined): Promise<GoalRunView> {
    if (this.runs.has(sessionId)) return this.view(sessionId);
    // The next task's commit would take the user's edits made while the run was halted: asked first, as at Run.
    const tree = await checkDirtyTree(new WorkspaceGit(this.options.workspaceOf(sessionId)), dirtyTree);
    if (tree === 'worktree') throw new DomainError('state', 'a halted run resumes in its own workspace; commit or stash the changes to resume it');
    const meta = this.meta(sessionId);
    await prepareResume({ meta, checkpoints: this.options.checkpoints, resumer: this.resumer, progress: this.options.progress }, sessionId, actor);
    this.options.ledger.append({ type: 'goal.resume', actor, sessionId, payload: {} });
    this.options.progress.log(sessionId, `Goal run resumed by ${actor}`);
    return this.launch(sessionId, tree === 'clean' ? undefined : tree);
  }

  private async rollbackNow(sessionId: string, taskId: string, actor: string): Promise<RollbackResult> {
    if (this.runs.has(sessionId)) throw new DomainError('state', `the goal run of this session is running; halt it before rolling back task ${taskId}`);
    const workspace = this.options.workspaceOf(sessionId);
    const result = await rollbackTask({ meta: this.meta(sessionId), git: new WorkspaceGit(workspace), ledger: this.options.ledger, progress: this.options.progress }, sessionId, taskId, actor);
    this.refresh(sessionId);
    return result;
  }

  /** `git show` of one of the plan's task commits: its files (--stat) and its patch. */
  async showCommit(sessionId: string, commit: string): Promise<TaskCommitView> {
    const state = await this.meta(sessionId).read();
    const known = (state?.plan?.tasks ?? []).flatMap((t) => t.commits ?? []);
    const full = known.find((c) => c === commit || c.startsWith(commit));
    if (!full) throw new DomainError('not_found', `commit ${commit} is not a commit of this session's goal run tasks`);
    try {
      const shown = await new WorkspaceGit(this.options.workspaceOf(sessionId)).show(full, MAX_PATCH_CHARS);
      const truncated = shown.truncated || shown.patch.length > MAX_PATCH_CHARS;
      return { commit: shown.commit, stat: shown.stat, patch: truncated ? shown.patch.slice(0, MAX_PATCH_CHARS) : shown.patch, truncated };
    } catch (error) {
      if (error instanceof GitCommandError) throw new DomainError('not_found', `commit ${commit} is not in the workspace's history any more (was the branch changed or rewritten?)`);
      throw error;
    }
  }

  view(sessionId: string): GoalRunView {
    return this.views.get(sessionId) ?? this.refresh(sessionId);
  }

  onDidChange(listener: (view: GoalRunView) => void): Disposable {
    return this.changed.event(listener);
  }

  /** Resolves when the session's run (if any) has ended, with the view then. */
  async whenIdle(sessionId: string): Promise<GoalRunView> {
    await this.runs.get(sessionId)?.done;
    return this.view(sessionId);
  }

  /** Halts every run (the host is stopping); their state says "halted", so Resume continues them next time. */
  async dispose(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((sessionId) => this.halt(sessionId, 'host')));
    this.changed.dispose();
  }

  /**
   * Start, Halt, Resume and Roll back of one session run one after the other: a double click on Run, or Resume and
   * Roll back from two windows, must not start two loops or revert under a starting run.
   */
  private oneAtATime<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(sessionId, work);
  }

  private launch(sessionId: string, dirtyTree?: 'commit' | 'stash'): GoalRunView {
    const run: ActiveRun = { controller: new AbortController(), done: Promise.resolve(), haltedBy: 'user', phase: 'running', activeTaskId: null };
    this.runs.set(sessionId, run);
    const loop = new GoalRunLoop(
      { config: this.config, spawnAgent: this.options.spawnAgent, checkpoints: this.options.checkpoints, resumer: this.resumer, progress: this.options.progress, ledger: this.options.ledger, turns: this.options.turns },
      sessionId,
      this.options.workspaceOf(sessionId),
      run.controller.signal,
      {
        state: (state) => this.publish(sessionId, state),
        activity: (change) => {
          if (change.phase) run.phase = change.phase;
          if (change.activeTaskId !== undefined) run.activeTaskId = change.activeTaskId;
          this.refresh(sessionId);
        },
      },
      () => run.haltedBy,
      dirtyTree,
    );
    run.done = loop.run().finally(() => {
      this.runs.delete(sessionId);
      this.refresh(sessionId);
    });
    return this.refresh(sessionId);
  }

  private meta(sessionId: string): MetaState {
    return new MetaState(this.options.workspaceOf(sessionId));
  }

  /** Re-reads session.json (synchronously, as view() must be) and publishes the view. */
  private refresh(sessionId: string): GoalRunView {
    const paths = metaPaths(this.options.workspaceOf(sessionId));
    let state: SessionState | null = null;
    let problem: string | null = null;
    try {
      const data = readMetaFile(paths.session);
      state = data ? parseSessionState(JSON.parse(data.toString('utf8')), paths.session) : null;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    return this.publish(sessionId, state, problem);
  }

  private publish(sessionId: string, state: SessionState | null, problem: string | null = null): GoalRunView {
    const run = this.runs.get(sessionId);
    const record = readRecord(state);
    const stoppedAt = state?.status === 'halted' && state.plan ? (state.plan.tasks[state.plan.currentTaskIdx]?.id ?? null) : null;
    const view: GoalRunView = {
      sessionId,
      phase: run ? run.phase : !state ? (problem ? 'failed' : 'idle') : state.status === 'halted' ? (record.stopped?.kind === 'failed' ? 'failed' : 'halted') : state.plan?.tasks.every((t) => t.status === 'complete') ? 'done' : 'idle',
      state,
      planner: record.planner ?? this.plannerGuess(sessionId),
      activeTaskId: run ? run.activeTaskId : stoppedAt,
      message: problem ?? (run || state?.status !== 'halted' ? null : (record.stopped?.message ?? null)),
    };
    this.views.set(sessionId, view);
    this.changed.fire(view);
    return view;
  }

  private plannerGuess(sessionId: string): 'deterministic' | 'llm' {
    if (this.config.planner !== 'auto') return this.config.planner;
    const context = this.meta(sessionId).readContext();
    return context && hasContextPlan(context.text) ? 'deterministic' : 'llm';
  }
}
