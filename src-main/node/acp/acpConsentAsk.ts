import type { ConsentAsk, ConsentEngine, ConsentOutcome } from '../consent/consentEngine';

/** Resolves true once someone watches the session's consent cards, false if the signal aborts first. */
export type WhenWatched = (sessionId: string, signal: AbortSignal) => Promise<boolean>;

/**
 * engine.ask() that waits for the user: an ACP agent's request stays open until the person answers it or the turn
 * is cancelled, so "no window shows the session's cards" and "the card timed out unanswered" are not answers. The
 * ask waits for a watcher and is asked again (each unanswered round is ledgered as the engine records it). A denial
 * by the user, by a rule, or of a malformed request is final.
 */
export async function askPatiently(engine: ConsentEngine, ask: ConsentAsk & { signal: AbortSignal }, whenWatched: WhenWatched | undefined): Promise<ConsentOutcome> {
  for (;;) {
    if (whenWatched && !(await whenWatched(ask.sessionId, ask.signal))) return { decision: 'deny', reason: 'the request was withdrawn before anyone answered it' };
    const outcome = await engine.ask(ask);
    if (outcome.decision === 'allow' || !whenWatched || ask.signal.aborted || !unanswered(outcome.reason)) return outcome;
    // Never a hot loop, whatever the engine answers next.
    await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
  }
}

const ROUND_PAUSE_MS = 200;

/**
 * The prompter's reasons for a prompt nobody answered (ConsentPrompter): no card open for the session, or the card
 * timed out. Not a shutdown (the engine is gone), not an unreadable answer.
 */
function unanswered(reason: string): boolean {
  return reason.startsWith('the consent channel failed: no consent card is open') || reason.startsWith('the prompt was not answered: no answer within');
}
