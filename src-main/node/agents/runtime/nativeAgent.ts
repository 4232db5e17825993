import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { EVENT_SCHEMA_VERSION, type AgentEvent } from '../../../../src-preload/contract/agentEvents';
import { DisposableStore, type Disposable } from '../../../../src-preload/rpc';
import type { PreparedLaunch } from '../../sandbox/native/nativeSandbox';
import { AgentStoppedError } from '../../sandbox/wasm/sandboxErrors';
import { AgentRunEmitters } from './agentRunEmitters';
import { AgentEventError, parseAgentEvent } from './parseAgentEvent';
import { PausableDeadline } from './pausableDeadline';

/** A capability the agent asked for, answered by the consent engine: the grant's expiry, or null for a denial. */
export type NativeConsentAsk = (request: { capability: string; reason: string; durationS: number }) => Promise<{ granted: boolean; expiresAt: number | null }>;

export interface NativeAgentOptions {
  agentId: string;
  launch: PreparedLaunch;
  /** Wall-clock time the agent may run, not counting time waiting for the user's consent. */
  deadlineMs: number;
  askConsent: NativeConsentAsk;
}

/** Lines of stderr kept for the error message when the agent fails. */
const STDERR_TAIL_LINES = 20;
/** A line on stdout longer than this is not an event: the agent is stopped rather than the host's memory filled. */
const MAX_EVENT_LINE = 8 * 1024 * 1024;

/**
 * An agent with `sandbox = "native"`: its entry runs as a program inside the native sandbox (already prepared by the
 * caller). It speaks event protocol v0.1 as JSON lines: the host writes the `input` event to its stdin, the agent
 * writes output, artifact, state_update, consent_request and error events to stdout (stderr is its log), and a
 * consent_request is answered on stdin with consent_grant (granted, with its expiry) or consent_revoke (denied).
 * The turn ends when the program exits: 0 commits its staged workspace writes, anything else drops them.
 */
export class NativeAgent implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly emit = this.owner.add(new AgentRunEmitters());
  readonly calls = this.emit.calls;
  readonly onLog = this.emit.log.event;
  private child: ChildProcess | null = null;
  private stopped: AgentStoppedError | null = null;
  private readonly stderrTail: string[] = [];
  private readonly deadline: PausableDeadline;
  private waitingForUser = 0;
  private suspended = false;
  private ended: Promise<void> | null = null;

  constructor(private readonly o: NativeAgentOptions) {
    this.deadline = new PausableDeadline(o.deadlineMs, () =>
      this.stop('timeout', `the agent ran past its deadline of ${Math.round(o.deadlineMs / 1000)} s`, 'give it less to do per prompt'),
    );
  }

  /** Starts the program with the prompt; resolves when it exits 0, rejects with an AgentStoppedError otherwise. */
  invoke(input: Record<string, unknown>): Promise<void> {
    if (this.ended) return Promise.reject(new Error('a native agent takes one input per run'));
    const { launch } = this.o;
    const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    if (child.pid !== undefined) launch.afterSpawn?.(child.pid);
    child.stdin!.on('error', () => undefined); // the agent may exit without reading; its exit code says how it went
    this.send(input);
    this.deadline.resume();

    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => this.onLine(line));
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      this.emit.log.fire({ stream: 'stderr', text: line });
    });

    this.ended = new Promise<void>((resolve, reject) => {
      child.on('error', (error) => this.stop('crashed', `the agent's program could not start: ${error.message}`, 'check the manifest entry: an executable file in the agent folder'));
      // 'close', not 'exit': every line the program wrote has been read by then.
      child.on('close', (code, signal) => {
        this.deadline.pause();
        void this.settle(code, signal).then(resolve, reject);
      });
    });
    return this.ended;
  }

  /** Nothing to do: the program's exit ended the turn (kept for the runtime's step sequence). */
  async shutdown(): Promise<void> {
    await this.ended;
  }

  suspend(): void {
    if (this.suspended || !this.child?.pid || this.stopped) return;
    this.signalGroup('SIGSTOP');
    this.deadline.pause();
    this.suspended = true;
  }

  resume(): void {
    if (!this.suspended || this.stopped) return;
    this.suspended = false;
    this.signalGroup('SIGCONT');
    this.deadline.resume();
  }

  kill(message = 'the agent was stopped by the host'): void {
    this.stop('killed', message, '');
  }

  private async settle(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const { launch } = this.o;
    try {
      if (this.stopped) {
        await launch.onFailure?.();
        throw this.stopped;
      }
      if (code === 0) {
        await launch.onSuccess?.();
        return;
      }
      await launch.onFailure?.();
      const limit = launch.limitHit?.();
      if (limit) throw new AgentStoppedError('memory_limit', limit, 'raise the manifest resources, or make the agent use less');
      const tail = this.stderrTail.slice(-5).join(' | ');
      throw new AgentStoppedError('crashed', `the agent's program ended with ${signal ? `signal ${signal}` : `code ${code}`}${tail ? `: ${tail}` : ''}`, 'see its log card; its workspace writes were dropped');
    } finally {
      launch.dispose?.();
    }
  }

  private onLine(line: string): void {
    if (this.stopped || line.trim() === '') return;
    if (line.length > MAX_EVENT_LINE) return this.stop('crashed', `the agent wrote a line of ${line.length} characters, which is not an event`, 'send events of at most 8 MiB');
    let event: AgentEvent;
    try {
      event = parseAgentEvent(JSON.parse(line));
    } catch (error) {
      // Anything that is not an event is shown as the agent's log, with why it was not taken as one.
      const why = error instanceof AgentEventError ? error.message : 'not JSON';
      this.emit.log.fire({ stream: 'stdout', text: `${line.slice(0, 2000)}  [not an event: ${why}]` });
      return;
    }
    switch (event.type) {
      case 'output':
        this.emit.output.fire({ contentType: event.content_type, data: event.data, chunkId: event.chunk_id });
        return;
      case 'artifact':
        this.emit.artifact.fire({ id: event.id, kind: event.kind, path: event.path, previewHint: event.preview_hint });
        return;
      case 'state_update':
        this.emit.state.fire({ key: event.key, value: event.value, scope: event.scope });
        return;
      case 'consent_request':
        void this.answerConsent(event.capability, event.reason, event.duration_s);
        return;
      case 'error':
        this.emit.log.fire({ stream: 'stdout', text: `error ${event.code}: ${event.message}${event.hint ? ` (${event.hint})` : ''}` });
        return;
      default:
        this.emit.log.fire({ stream: 'stdout', text: `the agent sent a ${event.type} event, which only the shell sends; ignored` });
    }
  }

  /** The time spent waiting for the user does not count against the deadline. */
  private async answerConsent(capability: string, reason: string, durationS: number): Promise<void> {
    if (this.waitingForUser++ === 0) this.deadline.pause();
    let answer: { granted: boolean; expiresAt: number | null };
    try {
      answer = await this.o.askConsent({ capability, reason, durationS });
    } catch {
      answer = { granted: false, expiresAt: null };
    } finally {
      if (--this.waitingForUser === 0 && !this.suspended && !this.stopped) this.deadline.resume();
    }
    this.send({ schema_version: EVENT_SCHEMA_VERSION, type: answer.granted ? 'consent_grant' : 'consent_revoke', capability, expires_at: answer.expiresAt });
  }

  private send(event: Record<string, unknown>): void {
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(`${JSON.stringify(event)}\n`);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child!.pid!, signal);
    } catch {
      // already gone
    }
  }

  private stop(reason: AgentStoppedError['reason'], message: string, hint: string): void {
    if (this.stopped) return;
    this.stopped = new AgentStoppedError(reason, message, hint);
    this.deadline.end();
    if (this.child?.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      if (this.suspended) this.signalGroup('SIGCONT');
      this.signalGroup('SIGKILL');
    }
  }

  dispose(): void {
    this.kill('the agent was disposed');
    this.owner.dispose();
  }
}
