import type { ConsentPrompt } from '../../../src-preload/contract';

/**
 * Where the engine asks the user. The host attaches the UI's consent card; the headless runner attaches its
 * --grant flags. The answer is `unknown` on purpose: it comes from another process (or a person), and the engine
 * parses it; anything unreadable is a denial.
 *
 * `signal` aborts when the engine stops waiting (timeout, shutdown): the channel should take the card away.
 * A channel that cannot ask (no window open, say) rejects, and the engine denies.
 */
export interface ConsentChannel {
  prompt(prompt: ConsentPrompt, signal: AbortSignal): Promise<unknown>;
}
