/** A session's events cannot be folded into a state: says which event and what is wrong with it. */
export class ReplayError extends Error {
  constructor(
    readonly sessionId: string,
    readonly seq: number | null,
    problem: string,
  ) {
    super(`cannot replay session ${sessionId}${seq === null ? '' : ` at event ${seq}`}: ${problem}`);
    this.name = 'ReplayError';
  }
}
