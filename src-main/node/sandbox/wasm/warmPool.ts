import type { Disposable } from '../../../../src-preload/rpc';
import { AgentChild, type AgentChildOptions } from './agentChild';

/**
 * Idle agent processes started ahead of time, so starting an agent does not wait for Node to boot. A child runs
 * one agent and is never reused: `take` hands one out and starts its replacement.
 */
export class WarmPool implements Disposable {
  private readonly idle: AgentChild[] = [];
  private disposed = false;

  constructor(
    private readonly size: number,
    private readonly options: AgentChildOptions = {},
  ) {
    this.refill();
  }

  private refill(): void {
    while (!this.disposed && this.idle.length < this.size) {
      const child = new AgentChild(this.options);
      this.idle.push(child);
      child.onExit(() => {
        const at = this.idle.indexOf(child);
        if (at >= 0) this.idle.splice(at, 1);
      });
    }
  }

  /** A ready child when one is waiting ("warm"), else a new one ("cold"). */
  async take(): Promise<{ child: AgentChild; warm: boolean }> {
    const at = this.idle.findIndex((c) => c.alive);
    if (at >= 0) {
      const child = this.idle.splice(at, 1)[0];
      this.refill();
      try {
        await child.ready;
        return { child, warm: true };
      } catch {
        // A pre-started process that died while idle: a new one below says why if it fails too.
      }
    }
    const child = new AgentChild(this.options);
    this.refill();
    await child.ready;
    return { child, warm: false };
  }

  /** Resolves once every idle child has booted (benchmarks and tests measure warm starts after this). */
  async whenWarm(): Promise<void> {
    await Promise.all(this.idle.map((c) => c.ready));
  }

  dispose(): void {
    this.disposed = true;
    for (const child of this.idle.splice(0)) child.kill();
  }
}
