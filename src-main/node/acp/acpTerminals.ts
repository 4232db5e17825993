import { RequestError, type CreateTerminalRequest, type TerminalOutputResponse, type WaitForTerminalExitResponse } from '@agentclientprotocol/sdk';
import type { ConsentEngine } from '../consent/consentEngine';
import type { ExecService } from '../exec/execService';
import { askPatiently, type WhenWatched } from './acpConsentAsk';
import { workspaceRelative } from './acpWorkspacePath';

export interface AcpTerminalContext {
  agentId: string;
  sessionId: string;
  workspace: string;
}

const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;
const POLL_MS = 100;
const PROPOSED_GRANT_S = 10 * 60;

interface Tracked {
  runId: string;
  limit: number;
}

/**
 * terminal/* through the exec service's shell tool (the same runs the Runs panel lists, actor `acp:<agent>`):
 * create → consent for the command (process.exec, asked per command) → spawn; output/wait_for_exit → poll;
 * kill → kill; release → kill if still running and forget. A terminal's cwd must be inside the workspace.
 */
export class AcpTerminals {
  private readonly terminals = new Map<string, Tracked>();

  constructor(
    private readonly engine: ConsentEngine,
    private readonly exec: ExecService,
    private readonly context: AcpTerminalContext,
    private readonly whenWatched?: WhenWatched,
  ) {}

  private caller() {
    return { actor: this.context.agentId, sessionId: this.context.sessionId, workspace: this.context.workspace };
  }

  async create(request: CreateTerminalRequest, signal: AbortSignal): Promise<{ terminalId: string }> {
    const argv = [request.command, ...(request.args ?? [])];
    const line = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
    let cwd: string | undefined;
    if (request.cwd) {
      const rel = workspaceRelative(request.cwd, this.context.workspace);
      if (!rel.ok) throw RequestError.invalidParams({ cwd: request.cwd }, `refused: ${rel.reason}`);
      cwd = rel.path === '' ? undefined : rel.path;
    }
    const use = { agentId: this.context.agentId, sessionId: this.context.sessionId, capability: 'process.exec', action: line };
    const outcome = await askPatiently(this.engine, { ...use, reason: `the agent wants to run $ ${line} in ${request.cwd ?? this.context.workspace}`, durationS: PROPOSED_GRANT_S, signal }, this.whenWatched);
    if (outcome.decision !== 'allow') throw new RequestError(-32000, `denied by Omniscient Shell's consent: ${outcome.reason}`);
    const used = this.engine.check(use);
    if (used.decision !== 'allow') throw new RequestError(-32000, `denied by Omniscient Shell's consent: ${used.reason}`);
    const limit = request.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT;
    const result = await this.exec.shell({ action: 'spawn', command: argv, background: true, cwd, max_output_bytes: Math.max(1, limit) }, this.caller());
    if (result.action !== 'spawn') throw new RequestError(-32603, 'the run could not be started');
    this.terminals.set(result.run_id, { runId: result.run_id, limit });
    return { terminalId: result.run_id };
  }

  async output(terminalId: string): Promise<TerminalOutputResponse> {
    const tracked = this.get(terminalId);
    const { text, status, exitCode, signal } = await this.collect(tracked);
    const bytes = Buffer.from(text, 'utf8');
    const truncated = bytes.length > tracked.limit;
    const output = truncated ? bytes.subarray(bytes.length - tracked.limit).toString('utf8') : text;
    const ended = status !== 'queued' && status !== 'running';
    return { output, truncated, exitStatus: ended ? { exitCode, signal } : null };
  }

  async waitForExit(terminalId: string, abort: AbortSignal): Promise<WaitForTerminalExitResponse> {
    const tracked = this.get(terminalId);
    for (;;) {
      const { status, exitCode, signal } = await this.collect(tracked);
      if (status !== 'queued' && status !== 'running') return { exitCode, signal };
      if (abort.aborted) throw new RequestError(-32800, 'cancelled');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async kill(terminalId: string): Promise<void> {
    const tracked = this.get(terminalId);
    await this.exec.shell({ action: 'kill', run_id: tracked.runId }, this.caller()).catch(() => {});
  }

  async release(terminalId: string): Promise<void> {
    const tracked = this.terminals.get(terminalId);
    if (!tracked) return;
    this.terminals.delete(terminalId);
    await this.exec.shell({ action: 'kill', run_id: tracked.runId }, this.caller()).catch(() => {});
  }

  /** Kills every terminal still running (the conversation ended). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.terminals.keys()].map((id) => this.release(id)));
  }

  private get(terminalId: string): Tracked {
    const tracked = this.terminals.get(terminalId);
    if (!tracked) throw RequestError.invalidParams({ terminalId }, `no terminal ${terminalId} (released, or never created)`);
    return tracked;
  }

  private async collect(tracked: Tracked): Promise<{ text: string; status: string; exitCode: number | null; signal: string | null }> {
    let since = 0;
    let text = '';
    let signal: string | null = null;
    for (;;) {
      const polled = await this.exec.shell({ action: 'poll', run_id: tracked.runId, since_seq: since }, this.caller());
      if (polled.action !== 'poll') throw new RequestError(-32603, 'the run could not be read');
      for (const item of polled.items) {
        if (item.kind === 'stdout' || item.kind === 'stderr' || item.kind === 'output') text += item.data;
        if (item.kind === 'event' && item.data === 'exit' && typeof item.detail?.signal === 'string') signal = item.detail.signal;
      }
      since = polled.next_seq;
      if (!polled.more) return { text, status: polled.status, exitCode: polled.exit_code, signal };
    }
  }
}
