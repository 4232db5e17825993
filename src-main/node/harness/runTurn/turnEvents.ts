import type { BaseEvent, HarnessContinuationRef, SessionCallbacks } from '../types';

/**
 * Numbers and stamps a turn's events (spec §4.1) and attaches the continuation once it is known: every event
 * after the key is first observed carries it, so a host that only keeps the last event still knows how to resume.
 */
export class TurnEvents {
  private seq = 0;
  private known: HarnessContinuationRef | undefined;

  constructor(
    private readonly ids: { cpSessionId: string; runId: string },
    private readonly callbacks: SessionCallbacks,
    initial?: HarnessContinuationRef,
  ) {
    if (initial?.key !== undefined) this.known = { provider: initial.provider, key: initial.key };
  }

  /** The continuation as known now (the request's, or the key the provider reported since). */
  get continuation(): HarnessContinuationRef | undefined {
    return this.known ? { ...this.known } : undefined;
  }

  /** Records a key the provider reported; the event that reveals it is the first to carry it. */
  observe(continuation: HarnessContinuationRef): void {
    if (continuation.key === undefined) return;
    if (this.known?.key === continuation.key && this.known.provider === continuation.provider) return;
    this.known = { provider: continuation.provider, key: continuation.key };
  }

  emit(payload: unknown): void {
    const event: BaseEvent = {
      ts: new Date().toISOString(),
      seq: this.seq++,
      cpSessionId: this.ids.cpSessionId,
      runId: this.ids.runId,
      ...(this.known ? { continuation: { ...this.known } } : {}),
      payload,
    };
    // A throwing callback ends the turn: the runners catch this, stop the provider call and report it as failed.
    try {
      this.callbacks.onEvent(event);
    } catch (error) {
      throw new TurnCallbackError(event.seq, error);
    }
  }
}

/** The host's onEvent threw; the turn ends `failed` with code HARNESS_CALLBACK_FAILED. */
export class TurnCallbackError extends Error {
  constructor(
    readonly seq: number,
    override readonly cause: unknown,
  ) {
    super(`callbacks.onEvent threw on event ${seq}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TurnCallbackError';
  }
}
