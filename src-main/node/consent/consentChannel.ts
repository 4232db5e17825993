import type { ConsentPrompt } from '../../../src-preload/contract';
import type { Disposable } from '../../../src-preload/rpc';

/**
 * Where the engine asks the user. The host attaches the UI's consent card; the headless runner attaches its
 * --grant flags. The answer is `unknown` on purpose: it comes from another process (or a person), and the engine
 * parses it; anything unreadable is a denial.
 *
 * `signal` aborts when the engine stops waiting (timeout, shutdown): the channel should take the card away.
 * A channel that cannot ask at all rejects, and the engine denies.
 */
export interface ConsentChannel {
  prompt(prompt: ConsentPrompt, signal: AbortSignal): Promise<unknown>;
  /**
   * Whether anyone can see the session's prompts now (at once, then on every change). A prompt's deadline runs only
   * while someone does: nobody watching is never a reason to deny. A channel without it is always watched (the
   * headless runner answers at once).
   */
  watching?(sessionId: string, listener: (watched: boolean) => void): Disposable;
}
