import type { AgentRunEvent, AgentRunInfo, DeniedCall } from '../../../../src-preload/contract/agents';
import { Emitter } from '../../../../src-preload/rpc';
import type { AgentTurn } from './agentTurn';
import { Lifecycle } from './lifecycle';

/** Most output a run keeps to replay to a late subscriber; past it, the oldest output chunks are dropped from the replay. */
const MAX_REPLAY_CHARS = 32 * 1024 * 1024;

/**
 * One run of an agent in a session: its info, its lifecycle, and everything it produced, kept so a card opened
 * later (or after a reconnect) replays the run from its start, then follows it live.
 */
export class AgentRun {
  readonly lifecycle = new Lifecycle();
  private readonly events: AgentRunEvent[] = [];
  private keptChars = 0;
  private readonly appended = new Emitter<AgentRunEvent>();
  readonly onDidAppend = this.appended.event;
  private readonly ending = new AbortController();
  /** Aborts when the run ends: a consent prompt asked on its behalf is withdrawn. */
  readonly stopSignal: AbortSignal = this.ending.signal;
  /** Model tokens the run used, as its model-backed kind reports them (0 for programs that call no model). */
  private tokens = 0;
  /** The user asked it to stop: refusals from here on are its prompts being withdrawn. */
  stopping = false;
  /** Uses refused for want of a grant that no answer has settled yet (see refused()). */
  private tried: DeniedCall[] = [];

  /** `turn`: spawn_agent's prompts and options when the run is one (null for a run started from the UI). */
  constructor(
    public info: AgentRunInfo,
    readonly turn: AgentTurn | null = null,
  ) {
    this.lifecycle.onDidChange((change) => {
      this.info = { ...this.info, state: change.to };
      this.push({ kind: 'state', state: change.to, cause: change.cause, detail: change.detail ?? null });
    });
  }

  /** A run of an earlier host, rebuilt from the event log (agentRunLog.ts): replayed as it was, never live. */
  static fromLog(info: AgentRunInfo, events: readonly AgentRunEvent[]): AgentRun {
    const run = new AgentRun(info);
    run.events.push(...events);
    if (info.endedAt !== null) {
      run.appended.dispose();
      run.ending.abort();
    }
    return run;
  }

  get ended(): boolean {
    return this.info.endedAt !== null;
  }

  get tokensUsed(): number {
    return this.tokens;
  }

  /** A model-backed agent reports each response's usage here; spawn_agent returns the sum as metadata.tokens_used. */
  addTokens(count: number): void {
    if (Number.isFinite(count) && count > 0) this.tokens += Math.round(count);
  }

  /**
   * The user granted it `capability` while it ran (the count goes out with its record, in `ended`). Uses of it
   * refused before the grant were the agent trying before asking: answered now, they are not denied calls.
   */
  granted(capability: string): void {
    if (this.ended) return;
    this.info = { ...this.info, grantsGiven: this.info.grantsGiven + 1 };
    this.tried = this.tried.filter((call) => call.capability !== capability);
  }

  /**
   * A capability use it was refused. `answered`: by the user, a rule, a timeout or a revocation, so it is listed
   * at once. Otherwise it was refused for want of a grant, and the agent may ask next: it is held until the answer
   * (a grant drops it, a refusal replaces it) or the run's end (then it is listed: nothing allowed it).
   */
  refused(call: DeniedCall, answered: boolean): void {
    // Stopping withdraws the prompt it was waiting on (a refusal in the ledger): the user's Stop, not a denied call.
    if (this.ended || this.stopping) return;
    if (!answered) {
      this.tried.push(call);
      return;
    }
    this.tried = this.tried.filter((tried) => tried.capability !== call.capability);
    this.push({ kind: 'denied', call });
  }

  /** Everything so far, oldest first. */
  replay(): readonly AgentRunEvent[] {
    return this.events;
  }

  push(event: AgentRunEvent): void {
    if (this.ended) return;
    if (event.kind === 'denied') this.info = { ...this.info, deniedCalls: this.info.deniedCalls + 1 };
    this.events.push(event);
    if (event.kind === 'output') {
      this.keptChars += event.data.length;
      this.trim();
    }
    this.appended.fire(event);
  }

  end(update: Pick<AgentRunInfo, 'outcome' | 'error'>, at: number): void {
    if (this.ended) return;
    // Stopped by the user while it waited for an answer: what it tried before asking was never refused by anyone.
    const unanswered = this.stopping ? [] : this.tried;
    this.tried = [];
    for (const call of unanswered) this.push({ kind: 'denied', call });
    this.info = { ...this.info, ...update, endedAt: at };
    const ended: AgentRunEvent = { kind: 'ended', run: this.info };
    this.events.push(ended);
    this.appended.fire(ended);
    this.appended.dispose();
    this.ending.abort();
  }

  private trim(): void {
    while (this.keptChars > MAX_REPLAY_CHARS) {
      const at = this.events.findIndex((e) => e.kind === 'output');
      if (at < 0) return;
      const dropped = this.events[at] as Extract<AgentRunEvent, { kind: 'output' }>;
      this.keptChars -= dropped.data.length;
      this.events.splice(at, 1);
    }
  }
}
