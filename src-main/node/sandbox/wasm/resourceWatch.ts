import type { Disposable } from '../../../../src-preload/rpc';
import { readProcessUsage } from './procStat';

export interface ResourceLimits {
  /** resources.mem, bytes: the guest's linear memory cap. */
  memBytes: number;
  /** resources.cpu in millicores ("500m" = 500): the share of one core the agent may use over a step. */
  cpuMillicores: number;
  /** Wall-clock time one step (start, invoke, shutdown) may take, not counting time suspended or waiting for the user. */
  deadlineMs: number;
  /**
   * The deadline is for all steps together (spawn_agent's timeout_seconds is one clock for the whole agent), not for
   * each step; the CPU budget stays per step.
   */
  deadlineSpansSteps?: boolean;
  /** Resident memory the child's Node may use on top of memBytes before it is killed. */
  rssOverheadBytes?: number;
  pollMs?: number;
}

export type Overrun = { reason: 'timeout' | 'cpu_budget' | 'memory_limit'; message: string; hint: string };

/**
 * Watches one step of an agent's child process: wall-clock time (paused while suspended or while the user answers a
 * consent prompt), CPU time from /proc against a budget of millicores × deadline, and resident memory. Calls
 * `onOverrun` once, at the first limit crossed; the caller kills.
 */
export class ResourceWatch implements Disposable {
  private timer: NodeJS.Timeout | null = null;
  private activeMs = 0;
  private runningSince: number | null = null;
  private pauses = 0;
  private cpuAtStart = 0;
  private step = '';

  constructor(
    private readonly pid: number,
    private readonly limits: ResourceLimits,
    private readonly onOverrun: (overrun: Overrun) => void,
  ) {}

  get cpuBudgetMs(): number {
    return (this.limits.deadlineMs * this.limits.cpuMillicores) / 1000;
  }

  get rssLimitBytes(): number {
    return this.limits.memBytes + (this.limits.rssOverheadBytes ?? 256 * 1024 * 1024);
  }

  begin(step: string): void {
    this.end();
    this.step = step;
    if (!this.limits.deadlineSpansSteps) this.activeMs = 0;
    this.pauses = 0;
    this.runningSince = performance.now();
    this.cpuAtStart = readProcessUsage(this.pid)?.cpuMs ?? 0;
    this.timer = setInterval(() => this.poll(), this.limits.pollMs ?? 20);
  }

  /** Stops the clock (nestable: suspended and waiting for consent at once needs both to end). */
  pause(): void {
    if (this.pauses++ === 0 && this.runningSince !== null) {
      this.activeMs += performance.now() - this.runningSince;
      this.runningSince = null;
    }
  }

  resume(): void {
    if (this.pauses > 0 && --this.pauses === 0 && this.timer) this.runningSince = performance.now();
  }

  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Banks the step's running time (it carries over when the deadline spans steps).
    if (this.runningSince !== null) this.activeMs += performance.now() - this.runningSince;
    this.runningSince = null;
  }

  private poll(): void {
    const { deadlineMs, cpuMillicores, memBytes } = this.limits;
    const active = this.activeMs + (this.runningSince === null ? 0 : performance.now() - this.runningSince);
    const usage = readProcessUsage(this.pid);
    let overrun: Overrun | null = null;
    if (usage && usage.rssBytes > this.rssLimitBytes) {
      overrun = {
        reason: 'memory_limit',
        message: `the agent's process used ${usage.rssBytes} bytes of memory in ${this.step}, over its limit of ${this.rssLimitBytes} (resources.mem ${memBytes} plus the runtime's own)`,
        hint: 'raise resources.mem in the manifest, or make the agent use less memory',
      };
    } else if (active > deadlineMs) {
      // Checked before the CPU budget: when both are crossed, the deadline is the plainer reason.
      overrun = {
        reason: 'timeout',
        message: this.limits.deadlineSpansSteps ? `the agent ran past its ${deadlineMs} ms deadline (all steps together), in ${this.step}` : `the agent ran past its ${deadlineMs} ms deadline in ${this.step}`,
        hint: 'raise the deadline, or make the agent do less per invocation (a loop that never ends looks like this)',
      };
    } else if (usage && usage.cpuMs - this.cpuAtStart > this.cpuBudgetMs) {
      overrun = {
        reason: 'cpu_budget',
        message: `the agent used ${Math.round(usage.cpuMs - this.cpuAtStart)} ms of CPU in ${this.step}, over its budget of ${Math.round(this.cpuBudgetMs)} ms (resources.cpu ${cpuMillicores}m over a ${deadlineMs} ms deadline)`,
        hint: 'raise resources.cpu in the manifest, or make the agent do less per invocation',
      };
    }
    if (overrun) {
      this.end();
      this.onOverrun(overrun);
    }
  }

  dispose(): void {
    this.end();
  }
}
