// A goal run on real parts: a git workspace in a temp folder, .meta files through MetaState, the CheckpointStore on a
// SQLite file, the ledger and ProgressLog. Only the agents are scripted (they stand in for LLM answers).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, MetaState, ProgressLog, type ProgressEntry, type SessionState } from '../../../src-main/node/goal/metaShell';
import type { AgentResponse, SpawnAgentOptions, SpawnContext } from '../../../src-main/node/goal/metaShell/spawnAgentTypes';
import { Ledger } from '../../../src-main/node/ledger/ledger';
import { Orchestrator, type OrchestratorOptions } from '../../../src-main/node/goal/orchestrator/orchestrator';
import type { DirtyTreeChoice, GoalRunView } from '../../../src-main/node/goal/orchestrator/goalRunTypes';
import { openDatabase, type Database } from '../../../src-main/node/store/database';
import { tempDir, waitFor } from '../../helpers';

export interface AgentCall {
  agent: string;
  system: string;
  message: string;
  options: SpawnAgentOptions;
  context: SpawnContext;
  /** session.json as it was when the agent was spawned (the status the host had written). */
  stateAtSpawn: SessionState | null;
}

export type AgentScript = (call: AgentCall, workspace: string) => AgentResponse | Promise<AgentResponse>;

export const ok = (data = 'done'): AgentResponse => ({ status: 'success', data, metadata: { tokens_used: 10, duration_ms: 1 } });
export const answer = (status: AgentResponse['status'], data: string): AgentResponse => ({ status, data, metadata: { tokens_used: 1, duration_ms: 1 } });

export const SESSION = 'ses-goal';

export class GoalRunFixture {
  readonly dir = tempDir('goal-run');
  readonly workspace = join(this.dir.path, 'project');
  readonly db: Database;
  readonly ledger: Ledger;
  readonly checkpoints: CheckpointStore;
  readonly progress = new ProgressLog();
  readonly logged: ProgressEntry[] = [];
  readonly calls: AgentCall[] = [];
  readonly meta: MetaState;
  orchestrator!: Orchestrator;

  constructor(private readonly scripts: Record<string, AgentScript>) {
    mkdirSync(this.workspace);
    this.db = openDatabase(join(this.dir.path, 'host.db'));
    this.ledger = new Ledger(this.db);
    this.checkpoints = new CheckpointStore(this.db, { ledger: this.ledger });
    this.progress.onDidLog((entry) => this.logged.push(entry));
    this.meta = new MetaState(this.workspace);
  }

  start(config: OrchestratorOptions['config'] = {}): Orchestrator {
    this.orchestrator = new Orchestrator({
      spawnAgent: async (agent, system, message, options, context) => {
        const call: AgentCall = { agent, system, message, options, context, stateAtSpawn: await this.meta.read() };
        this.calls.push(call);
        const script = this.scripts[agent];
        if (!script) throw new Error(`unknown agent "${agent}"`);
        return script(call, this.workspace);
      },
      workspaceOf: (sessionId) => {
        if (sessionId !== SESSION) throw new Error(`unknown session ${sessionId}`);
        return this.workspace;
      },
      checkpoints: this.checkpoints,
      progress: this.progress,
      ledger: this.ledger,
      config: { answerPollMs: 10, ...config },
    });
    return this.orchestrator;
  }

  writeContext(text: string): void {
    mkdirSync(join(this.workspace, '.meta'), { recursive: true });
    writeFileSync(join(this.workspace, '.meta', 'context.md'), text);
  }

  /** Starts a run (with the user's answer to uncommitted changes, if any) and waits until it has ended. */
  async run(dirtyTree?: DirtyTreeChoice): Promise<GoalRunView> {
    await this.orchestrator.start(SESSION, 'user', dirtyTree);
    return this.orchestrator.whenIdle(SESSION);
  }

  waitForView(check: (view: GoalRunView) => boolean, what: string): Promise<GoalRunView> {
    return waitFor(() => {
      const view = this.orchestrator.view(SESSION);
      return check(view) ? view : null;
    }, what);
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.workspace, encoding: 'utf8' }).trim();
  }

  ledgerTypes(): string[] {
    this.ledger.flush();
    return this.ledger.list({ sessionId: SESSION, limit: 500 }).reverse().map((e) => e.type);
  }

  async dispose(): Promise<void> {
    await this.orchestrator?.dispose();
    this.ledger.dispose();
    this.db.close();
    this.dir.cleanup();
  }
}

/** An executor that writes `file` with `content` in the workspace (what an agent's edit looks like to git). */
export const writes =
  (files: Record<string, string>): AgentScript =>
  (_call, workspace) => {
    for (const [file, content] of Object.entries(files)) writeFileSync(join(workspace, file), content);
    return ok();
  };
