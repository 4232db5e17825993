import { ConsentAnswer, type ConsentPrompt } from '../../../src-preload/contract';
import { toDisposable, type Disposable } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import type { Clock } from './clock';
import type { ConsentChannel } from './consentChannel';
import { newConsentId } from './consentIds';
import type { ConsentAsk, ConsentOutcome } from './consentTypes';
import { recordDenial } from './denialRecord';
import type { LiveGrants } from './liveGrants';
import type { PreparedUse } from './preparedUse';
import { PromptDeadline } from './promptDeadline';

/**
 * Asking the user: one prompt through the attached channel for each distinct ask (identical asks waiting at the
 * same time share it), a deadline that counts only while someone can see the prompt (promptDeadline.ts), and every way it can go wrong (no channel, a failing channel, no answer in
 * time, the asker gone, an unreadable answer, shutdown) ending in a recorded denial. An allow becomes a grant.
 */
export class ConsentPrompter implements Disposable {
  /** Prompts waiting for an answer, by what they ask: identical asks share one. */
  private readonly pendingAsks = new Map<string, Promise<ConsentOutcome>>();
  private readonly promptAborts = new Set<AbortController>();
  private channel: ConsentChannel | undefined;
  private disposed = false;

  constructor(
    private readonly ledger: Ledger,
    private readonly grants: LiveGrants,
    private readonly clock: Clock,
    private readonly promptTimeoutMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  attachChannel(channel: ConsentChannel): Disposable {
    this.channel = channel;
    return toDisposable(() => {
      if (this.channel === channel) this.channel = undefined;
    });
  }

  /**
   * `exact`: the grant is for exactly this action. An ask with a signal of its own is never merged with another.
   */
  prompt(use: PreparedUse, ask: ConsentAsk, scope: string | null, exact: boolean): Promise<ConsentOutcome> {
    if (ask.signal) return this.promptUser(use, ask, scope, exact);
    const key = JSON.stringify([use.sessionId, use.agentId, use.capability, use.target, use.actionKey, scope, ask.reason, ask.durationS]);
    const pending = this.pendingAsks.get(key);
    if (pending) return pending;
    const outcome = this.promptUser(use, ask, scope, exact).finally(() => this.pendingAsks.delete(key));
    this.pendingAsks.set(key, outcome);
    return outcome;
  }

  /** Pending prompts end (denied); no new prompt is shown. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const controller of this.promptAborts) controller.abort(new Error('the host is shutting down'));
    this.channel = undefined;
  }

  private async promptUser(use: PreparedUse, ask: ConsentAsk, scope: string | null, exact: boolean): Promise<ConsentOutcome> {
    const deny = (reason: string, actor?: string): ConsentOutcome => {
      try {
        recordDenial(this.ledger, ask, use, { decision: 'deny', code: exact ? 'needs_prompt' : 'no_grant', reason }, actor);
      } catch (error) {
        // A ledger closed under a pending prompt (shutdown) must not turn the denial into something else.
        this.onError(error);
      }
      return { decision: 'deny', reason };
    };
    const channel = this.channel;
    if (!channel || this.disposed) return deny('no consent channel is attached, so nobody could be asked (fail closed)');
    const askedAt = this.clock.now();
    const abort = new AbortController();
    const deadline = new PromptDeadline(this.clock, this.promptTimeoutMs, () =>
      abort.abort(new Error(`no answer within ${Math.round(this.promptTimeoutMs / 1000)} s`)),
    );
    const prompt: ConsentPrompt = {
      id: newConsentId('prompt'),
      sessionId: use.sessionId,
      agentId: use.agentId,
      capability: use.capability,
      target: use.rawTarget,
      scope,
      action: exact ? use.actionKey : null,
      sensitive: use.sensitive,
      reason: ask.reason,
      durationS: ask.durationS,
      write: ask.write ?? null,
      askedAt,
      deadline: askedAt + this.promptTimeoutMs,
    };
    // The channel says when someone watches the session before it replays its prompts to them, so the deadline a
    // page is sent is the running one (while nobody watches, nobody is sent the prompt).
    const watched = (isWatched: boolean): void => {
      if (isWatched) deadline.run();
      else deadline.pause();
      prompt.deadline = deadline.deadline ?? this.clock.now() + deadline.remaining();
    };
    let watching: Disposable | undefined;
    try {
      watching = channel.watching ? channel.watching(use.sessionId, watched) : (watched(true), undefined);
    } catch (error) {
      deadline.dispose();
      return deny(`the consent channel failed: ${(error as Error)?.message ?? String(error)} (fail closed)`);
    }
    this.promptAborts.add(abort);
    const askerGone = (): void => abort.abort(new Error('the agent that asked has stopped'));
    if (ask.signal?.aborted) askerGone();
    else ask.signal?.addEventListener('abort', askerGone, { once: true });
    let answer: unknown;
    try {
      answer = await new Promise<unknown>((resolve, reject) => {
        abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
        // A channel that throws synchronously is a failing channel like any other.
        Promise.resolve()
          .then(() => channel.prompt(prompt, abort.signal))
          .then(resolve, reject);
      });
    } catch (error) {
      const why = abort.signal.aborted ? `the prompt was not answered: ${(abort.signal.reason as Error)?.message ?? 'aborted'}` : `the consent channel failed: ${(error as Error)?.message ?? String(error)}`;
      return deny(`${why} (fail closed)`);
    } finally {
      deadline.dispose();
      watching?.dispose();
      ask.signal?.removeEventListener('abort', askerGone);
      this.promptAborts.delete(abort);
      // Tells the channel the prompt is settled (a card still showing goes away).
      if (!abort.signal.aborted) abort.abort(new Error('settled'));
    }
    let parsed: ReturnType<typeof ConsentAnswer.safeParse>;
    try {
      parsed = ConsentAnswer.safeParse(answer);
    } catch {
      // An answer object whose getters throw is as unreadable as any other.
      return deny('the answer could not be read (fail closed)');
    }
    if (!parsed.success) return deny('the answer could not be read (fail closed)');
    if (this.disposed) return deny('the host shut down before the answer was applied');
    if (parsed.data.kind === 'deny') return deny('the user denied it', 'user');
    const grant = this.grants.create(
      { agentId: use.agentId, sessionId: use.sessionId, capability: use.capability, scope, action: exact ? use.actionKey : null },
      parsed.data.kind === 'allow_once' ? { kind: 'allow_once' } : { durationMs: parsed.data.minutes * 60_000 },
      'user',
      { target: use.rawTarget, reason: ask.reason },
    );
    return { decision: 'allow', reason: parsed.data.kind === 'allow_once' ? 'the user allowed it once' : `the user allowed it for ${parsed.data.minutes} min`, grant };
  }
}
