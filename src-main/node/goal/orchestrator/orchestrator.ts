import { DomainError } from '../../base/domainError';
import { Emitter, type Disposable } from '../../../../src-preload/rpc';
import { CheckpointResumer } from '../metaShell/checkpointResumer';
import type { CheckpointStore } from '../metaShell/checkpointStore';
import { metaPaths, readMetaFile } from '../metaShell/metaFiles';
import { MetaState } from '../metaShell/metaState';
import type { ProgressLog } from '../metaShell/progressLog';
import { parseSessionState, type SessionState } from '../metaShell/sessionState';
import type { SpawnAgent } from '../metaShell/spawnAgentTypes';
import type { Ledger } from '../../ledger/ledger';
import { hasContextPlan } from './contextPlan';
import { GoalRunLoop } from './goalRunLoop';
import { readRecord } from './goalRunRecord';
import type { GoalRunService, GoalRunView, RollbackResult } from './goalRunTypes';
import { prepareResume } from './haltedRunResume';
import { resolveConfig, type OrchestratorConfig } from './orchestratorConfig';
import { rollbackTask } from './taskRollback';
import { WorkspaceGit } from './workspaceGit';

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
}

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
  private readonly queues = new Map<string, Promise<void>>();
  private readonly views = new Map<string, GoalRunView>();
  private readonly changed = new Emitter<GoalRunView>();

  constructor(private readonly options: OrchestratorOptions) {
    this.config = resolveConfig(options.config);
    this.resumer = options.resumer ?? new CheckpointResumer(options.checkpoints);
  }

  start(sessionId: string, actor: string): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.startNow(sessionId, actor));
  }

  halt(sessionId: string, actor: string): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.haltNow(sessionId, actor));
  }

  resume(sessionId: string, actor: string): Promise<GoalRunView> {
    return this.oneAtATime(sessionId, () => this.resumeNow(sessionId, actor));
  }

  rollback(sessionId: string, taskId: string, actor: string): Promise<RollbackResult> {
    return this.oneAtATime(sessionId, () => this.rollbackNow(sessionId, taskId, actor));
  }

  private async startNow(sessionId: string, actor: string): Promise<GoalRunView> {
    if (this.runs.has(sessionId)) return this.view(sessionId);
    const state = await this.meta(sessionId).read();
    if (state?.status === 'halted') return this.resumeNow(sessionId, actor);
    if (state?.plan && state.plan.tasks.every((t) => t.status === 'complete')) return this.refresh(sessionId);
    this.options.ledger.append({ type: 'goal.start', actor, sessionId, payload: {} });
    this.options.progress.log(sessionId, `Goal run started by ${actor}`);
    return this.launch(sessionId);
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

  private async resumeNow(sessionId: string, actor: string): Promise<GoalRunView> {
    if (this.runs.has(sessionId)) return this.view(sessionId);
    const meta = this.meta(sessionId);
    await prepareResume({ meta, checkpoints: this.options.checkpoints, resumer: this.resumer, progress: this.options.progress }, sessionId, actor);
    this.options.ledger.append({ type: 'goal.resume', actor, sessionId, payload: {} });
    this.options.progress.log(sessionId, `Goal run resumed by ${actor}`);
    return this.launch(sessionId);
  }

  private async rollbackNow(sessionId: string, taskId: string, actor: string): Promise<RollbackResult> {
    if (this.runs.has(sessionId)) throw new DomainError('state', `the goal run of this session is running; halt it before rolling back task ${taskId}`);
    const workspace = this.options.workspaceOf(sessionId);
    const result = await rollbackTask({ meta: this.meta(sessionId), git: new WorkspaceGit(workspace), ledger: this.options.ledger, progress: this.options.progress }, sessionId, taskId, actor);
    this.refresh(sessionId);
    return result;
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
    const result = (this.queues.get(sessionId) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(sessionId, settled);
    void settled.then(() => {
      if (this.queues.get(sessionId) === settled) this.queues.delete(sessionId);
    });
    return result;
  }

  private launch(sessionId: string): GoalRunView {
    const run: ActiveRun = { controller: new AbortController(), done: Promise.resolve(), haltedBy: 'user', phase: 'running', activeTaskId: null };
    this.runs.set(sessionId, run);
    const loop = new GoalRunLoop(
      { config: this.config, spawnAgent: this.options.spawnAgent, checkpoints: this.options.checkpoints, resumer: this.resumer, progress: this.options.progress, ledger: this.options.ledger },
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
