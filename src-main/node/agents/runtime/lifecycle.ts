import { Emitter } from '../../../../src-preload/rpc';

/** The agent lifecycle of agent-instructions §3. */
export type AgentState = 'Registered' | 'Initialized' | 'Active' | 'Suspended' | 'Terminated';

/** Why an agent left a state: the user, a resource limit, its own end, or a failure. */
export type TransitionCause = 'user' | 'resource_limit' | 'completed' | 'error' | 'host';

/** Which states each state may move to. Terminated is final. */
const ALLOWED: Record<AgentState, readonly AgentState[]> = {
  Registered: ['Initialized', 'Terminated'],
  Initialized: ['Active', 'Terminated'],
  Active: ['Suspended', 'Terminated'],
  Suspended: ['Active', 'Terminated'],
  Terminated: [],
};

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: AgentState,
    readonly to: AgentState,
  ) {
    const allowed = ALLOWED[from];
    super(`an agent cannot go from ${from} to ${to}${allowed.length ? ` (from ${from} it can go to ${allowed.join(' or ')})` : ` (${from} is final)`}`);
    this.name = 'IllegalTransitionError';
  }
}

export interface StateChange {
  from: AgentState;
  to: AgentState;
  cause: TransitionCause;
  detail?: string;
}

/** One agent run's state, with every change announced; illegal transitions are refused, not ignored. */
export class Lifecycle {
  private current: AgentState = 'Registered';
  private readonly changed = new Emitter<StateChange>();
  readonly onDidChange = this.changed.event;

  get state(): AgentState {
    return this.current;
  }

  canMove(to: AgentState): boolean {
    return ALLOWED[this.current].includes(to);
  }

  move(to: AgentState, cause: TransitionCause, detail?: string): void {
    if (!this.canMove(to)) throw new IllegalTransitionError(this.current, to);
    const from = this.current;
    this.current = to;
    this.changed.fire({ from, to, cause, detail });
    if (to === 'Terminated') this.changed.dispose();
  }
}
