import type { ConsentPrompt, ConsentPromptEvent } from '../../../src-preload/contract';
import { toDisposable, type Disposable } from '../../../src-preload/rpc';
import type { ConsentChannel } from './consentChannel';
import { DomainError } from '../base/domainError';

/** consent.answer for a prompt that is not waiting (answered already, timed out, or never asked). */
export class PromptNotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(readonly promptId: string) {
    super('not_found', `consent prompt ${promptId} is not waiting for an answer: it was answered, timed out or withdrawn`);
    this.name = 'PromptNotFoundError';
  }
}

interface Waiting {
  prompt: ConsentPrompt;
  resolve: (answer: unknown) => void;
}

/**
 * The consent channel of the UI: prompts wait here, each session's consent cards watch them (consent.prompts),
 * and consent.answer settles them. A prompt of a session nobody watches waits for a page to open it (its deadline is
 * paused meanwhile, see watching()): closing the window is not an answer.
 */
export class UiConsentChannel implements ConsentChannel {
  private readonly waiting = new Map<string, Waiting>();
  private readonly watchers = new Map<string, Set<(event: ConsentPromptEvent) => void>>();
  /** Callers of whenWatched() waiting for a session's first watcher. */
  private readonly awaitingWatch = new Map<string, Set<() => void>>();
  /** watching() listeners (the prompts' deadlines), told when a session gains its first watcher or loses its last. */
  private readonly watchState = new Map<string, Set<(watched: boolean) => void>>();

  prompt(prompt: ConsentPrompt, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.set(prompt.id, { prompt, resolve });
      signal.addEventListener(
        'abort',
        () => {
          if (this.settle(prompt.id)) reject(signal.reason);
        },
        { once: true },
      );
      this.emit(prompt.sessionId, { kind: 'pending', prompt });
    });
  }

  /** The user's answer, passed on as it came: the engine reads it, and anything unreadable is a denial. */
  answer(promptId: string, answer: unknown): void {
    const waiting = this.waiting.get(promptId);
    if (!waiting) throw new PromptNotFoundError(promptId);
    this.settle(promptId);
    waiting.resolve(answer);
  }

  /** Replays the session's waiting prompts, then follows new and settled ones. */
  watch(sessionId: string, listener: (event: ConsentPromptEvent) => void): Disposable {
    let set = this.watchers.get(sessionId);
    if (!set) this.watchers.set(sessionId, (set = new Set()));
    set.add(listener);
    // Before the replay: a paused deadline resumes and the prompts replayed carry the new one.
    if (set.size === 1) this.tellWatchState(sessionId, true);
    for (const { prompt } of this.waiting.values()) if (prompt.sessionId === sessionId) listener({ kind: 'pending', prompt });
    const awaiting = this.awaitingWatch.get(sessionId);
    if (awaiting) {
      this.awaitingWatch.delete(sessionId);
      for (const wake of awaiting) wake();
    }
    return toDisposable(() => {
      if (!set.delete(listener)) return;
      if (set.size === 0) {
        this.watchers.delete(sessionId);
        this.tellWatchState(sessionId, false);
      }
    });
  }

  watching(sessionId: string, listener: (watched: boolean) => void): Disposable {
    let set = this.watchState.get(sessionId);
    if (!set) this.watchState.set(sessionId, (set = new Set()));
    set.add(listener);
    listener((this.watchers.get(sessionId)?.size ?? 0) > 0);
    return toDisposable(() => {
      set.delete(listener);
      if (set.size === 0 && this.watchState.get(sessionId) === set) this.watchState.delete(sessionId);
    });
  }

  /**
   * Resolves true once someone watches the session's consent cards (at once if someone does), false if `signal`
   * aborts first. For askers that wait for the user rather than take "nobody is looking" for an answer (ACP agents).
   */
  whenWatched(sessionId: string, signal: AbortSignal): Promise<boolean> {
    if ((this.watchers.get(sessionId)?.size ?? 0) > 0) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      let set = this.awaitingWatch.get(sessionId);
      if (!set) this.awaitingWatch.set(sessionId, (set = new Set()));
      const wake = () => {
        signal.removeEventListener('abort', gone);
        resolve(true);
      };
      const gone = () => {
        set.delete(wake);
        if (set.size === 0 && this.awaitingWatch.get(sessionId) === set) this.awaitingWatch.delete(sessionId);
        resolve(false);
      };
      set.add(wake);
      signal.addEventListener('abort', gone, { once: true });
    });
  }

  pending(sessionId: string): ConsentPrompt[] {
    return [...this.waiting.values()].map((w) => w.prompt).filter((p) => p.sessionId === sessionId);
  }

  private tellWatchState(sessionId: string, watched: boolean): void {
    for (const listener of [...(this.watchState.get(sessionId) ?? [])]) listener(watched);
  }

  private settle(promptId: string): boolean {
    const waiting = this.waiting.get(promptId);
    if (!waiting) return false;
    this.waiting.delete(promptId);
    this.emit(waiting.prompt.sessionId, { kind: 'settled', promptId });
    return true;
  }

  private emit(sessionId: string, event: ConsentPromptEvent): void {
    for (const listener of [...(this.watchers.get(sessionId) ?? [])]) listener(event);
  }
}
