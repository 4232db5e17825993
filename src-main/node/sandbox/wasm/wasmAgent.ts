import { DisposableStore, Emitter, type Disposable } from '../../../../src-preload/rpc';
import type { AgentChild } from './agentChild';
import type { AgentHostCalls } from './agentHostCalls';
import type { CappedModule } from './capMemory';
import type { FromChild, Step, ToChild } from './childProtocol';
import { ResourceWatch, type ResourceLimits } from './resourceWatch';
import { AgentStoppedError, type StopReason } from './sandboxErrors';

export type AgentRunState = 'starting' | 'idle' | 'running' | 'suspended' | 'terminated';

export interface AgentStop {
  reason: StopReason | 'exited';
  message: string;
  hint: string;
}

interface PendingStep {
  step: Step;
  resolve: () => void;
  reject: (error: AgentStoppedError) => void;
}

/**
 * One WASM agent running in its own child process. Steps (start, invoke, shutdown) run one at a time, each under
 * the ResourceWatch; the guest's omni.* calls are answered by AgentHostCalls in this (the host) process. Any limit
 * crossed, a trap, or `kill()` ends the child with SIGKILL at once and the step fails with an AgentStoppedError
 * whose `reason` says why; `onDidStop` tells the same to whoever runs the agent.
 */
export class WasmAgent implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly logs = this.owner.add(new Emitter<{ stream: 'stdout' | 'stderr'; text: string }>());
  private readonly stops = this.owner.add(new Emitter<AgentStop>());
  readonly onLog = this.logs.event;
  readonly onDidStop = this.stops.event;
  private readonly watch: ResourceWatch;
  private pending: PendingStep | null = null;
  private stopped: AgentStop | null = null;
  private suspended = false;
  state: AgentRunState = 'starting';

  constructor(
    private readonly child: AgentChild,
    readonly calls: AgentHostCalls,
    private readonly limits: ResourceLimits,
  ) {
    this.owner.add(calls);
    this.watch = this.owner.add(new ResourceWatch(child.pid, limits, (overrun) => this.stop(overrun.reason, overrun.message, overrun.hint)));
    this.owner.add(child.onFrame((frame) => this.onFrame(frame)));
    // Fired before the child is killed for it, so the agent ends for this reason rather than as a crash.
    this.owner.add(child.onDidSendBadFrame((error) => this.stop('protocol_error', error.message, "the agent's process is broken or was subverted by its guest; report it if it keeps happening")));
    this.owner.add(
      child.onExit(({ code, signal }) => {
        // Node aborts (SIGABRT, or exit code 134) when its heap cap is hit.
        const heap = signal === 'SIGABRT' || code === 134 || /heap out of memory/i.test(child.diagnostics);
        if (heap) this.stop('memory_limit', "the agent's process ran out of its heap", 'raise resources.mem, or make the agent use less memory');
        else this.stop('crashed', `the agent's process ended unexpectedly (code ${code}, signal ${signal})`, 'see the log; report it if it keeps happening');
      }),
    );
  }

  get pid(): number {
    return this.child.pid;
  }

  /** Why the agent stopped, once it has. */
  get whyStopped(): AgentStop | null {
    return this.stopped;
  }

  start(module: CappedModule, ctx: Record<string, unknown>): Promise<void> {
    return this.run('start', { type: 'start', module: module.bytes, ctx: JSON.stringify(ctx), maxPages: module.maxPages, memoryImport: module.memoryImport });
  }

  /** Runs the guest's omni_invoke with the §4 `input` event. */
  invoke(input: Record<string, unknown>): Promise<void> {
    return this.run('invoke', { type: 'invoke', input: JSON.stringify(input) });
  }

  /** omni_shutdown, then the process ends. */
  async shutdown(): Promise<void> {
    if (this.state === 'terminated') return;
    await this.run('shutdown', { type: 'shutdown' });
    this.stop('exited', 'the agent shut down', '');
  }

  /** SIGSTOP: the agent's process stops where it is; its deadline clock stops with it. */
  suspend(): void {
    if (this.suspended || this.state === 'terminated') return;
    this.child.signal('SIGSTOP');
    this.watch.pause();
    this.suspended = true;
    this.state = 'suspended';
  }

  resume(): void {
    if (!this.suspended || this.state === 'terminated') return;
    this.suspended = false;
    this.state = this.pending ? 'running' : 'idle';
    this.watch.resume();
    this.child.signal('SIGCONT');
  }

  /** Ends the agent now (SIGKILL). */
  kill(message = 'the agent was stopped by the host'): void {
    this.stop('killed', message, '');
  }

  private run(step: Step, message: ToChild): Promise<void> {
    if (this.stopped) return Promise.reject(new AgentStoppedError(this.stopped.reason === 'exited' ? 'killed' : this.stopped.reason, this.stopped.message, this.stopped.hint));
    if (this.pending) return Promise.reject(new Error(`the agent is still busy with ${this.pending.step}; ${step} waits until it is done`));
    return new Promise((resolve, reject) => {
      this.pending = { step, resolve, reject };
      if (!this.suspended) this.state = 'running';
      this.watch.begin(step);
      if (this.suspended) this.watch.pause();
      this.child.send(message);
    });
  }

  private finishStep(): void {
    const pending = this.pending;
    this.pending = null;
    this.watch.end();
    if (!this.suspended) this.state = 'idle';
    pending?.resolve();
  }

  private onFrame(frame: FromChild): void {
    switch (frame.type) {
      case 'call': {
        // Waiting for the user is not the agent's time.
        // omni.shell may wait on a consent card too (and a one-shot run on its command, which has its own timeout).
        const waitsForUser = frame.fn === 'consent' || frame.fn === 'shell';
        if (waitsForUser) this.watch.pause();
        void this.calls.call(frame.fn, frame.req).then((response) => {
          if (waitsForUser) this.watch.resume();
          if (!this.stopped) this.child.answer(response);
        });
        return;
      }
      case 'log':
        this.logs.fire({ stream: frame.stream, text: frame.text });
        return;
      case 'done':
        this.finishStep();
        return;
      case 'trap':
        if (frame.atMemoryCap) {
          this.stop('memory_limit', `the agent's memory reached ${frame.memoryBytes} bytes of its quota of ${this.limits.memBytes} bytes (resources.mem), where growing failed and it trapped: ${frame.message}`, 'raise resources.mem in the manifest, or make the agent use less memory');
        } else this.stop('trap', `the agent trapped in ${frame.step}: ${frame.message}`, 'a bug in the agent: see its log');
        return;
      case 'exit':
        if (frame.code === 0) {
          this.finishStep();
          this.stop('exited', 'the agent exited (proc_exit 0)', '');
        } else this.stop('crashed', `the agent exited with code ${frame.code} in ${frame.step}`, 'see its log');
        return;
      case 'failed':
        this.stop('crashed', `the agent failed in ${frame.step}: ${frame.message}`, 'see its log');
        return;
      case 'ready':
        return;
    }
  }

  private stop(reason: AgentStop['reason'], message: string, hint: string): void {
    if (this.stopped) return;
    this.stopped = { reason, message, hint };
    this.state = 'terminated';
    this.watch.end();
    this.child.kill();
    this.calls.dispose();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(new AgentStoppedError(reason === 'exited' ? 'killed' : reason, message, hint));
    this.stops.fire(this.stopped);
  }

  dispose(): void {
    this.kill('the agent was disposed');
    this.owner.dispose();
  }
}
