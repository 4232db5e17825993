import { ConsentAnswer, type ConsentGrant, type ConsentPrompt, type GrantChange } from '../../../src-preload/contract';
import { Emitter, toDisposable, type Disposable } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { isKnownCapability } from './capability';
import type { ConsentChannel } from './consentChannel';
import { CapabilityDeniedError, CapabilityRevokedError, GrantNotFoundError } from './consentErrors';
import { newConsentId } from './consentIds';
import { compileRule, RuleStore, type CompiledRule, type ConsentRule } from './consentRules';
import { MAX_TIMER_MS, systemClock, type Clock, type ClockTimer } from './clock';
import type { CapabilityUse, CheckCode, CheckResult, ConsentAsk, ConsentEngineOptions, ConsentOutcome, Decision, RevokeEvent } from './consentTypes';
import { grantEntryFields } from './grantEntryFields';
import { GrantStore } from './grantStore';
import { clip, MAX_TEXT, prepareUse, validId, type PreparedUse } from './preparedUse';
import { recordedTarget } from './recordedTarget';
import { compileScope, scopeForTarget, type ScopeMatcher } from './scope';

export type { CapabilityUse, CheckCode, CheckResult, ConsentAsk, ConsentEngineOptions, ConsentOutcome, Decision, RevokeEvent } from './consentTypes';

interface ActiveGrant {
  grant: ConsentGrant;
  matches: ScopeMatcher;
  controller: AbortController;
  timer: ClockTimer | undefined;
}

const DEFAULT_PROMPT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_ONCE_WINDOW_MS = 10 * 60_000;
const MAX_DURATION_S = 24 * 60 * 60;

const indexKey = (sessionId: string, agentId: string, capability: string) => `${sessionId}\u0000${agentId}\u0000${capability}`;

/**
 * The consent engine (docs/agent-runtime.md): default deny, a check at every use against live grants, the user's
 * rules first (deny > ask > allow), prompts through a pluggable channel that fails closed, grants that expire and
 * can be revoked mid-run (aborting the work tied to them), and one ledger entry for every request, grant,
 * denial, expiry and revocation.
 */
export class ConsentEngine implements Disposable {
  private readonly revoked = new Emitter<RevokeEvent>();
  /** A grant ended before its time (reason 'revoked') or ran out (reason 'expired'). */
  readonly onDidRevoke = this.revoked.event;
  private readonly changed = new Emitter<GrantChange>();
  /** Every grant made, used, revoked or expired, for the grants panel. */
  readonly onDidChangeGrant = this.changed.event;

  private readonly clock: Clock;
  private readonly promptTimeoutMs: number;
  private readonly onceWindowMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly grants: GrantStore;
  private readonly ruleStore: RuleStore;
  private rules: CompiledRule[];
  private readonly active = new Map<string, ActiveGrant>();
  private readonly byUse = new Map<string, Set<ActiveGrant>>();
  /** Prompts waiting for an answer, by what they ask: identical asks share one. */
  private readonly pendingAsks = new Map<string, Promise<ConsentOutcome>>();
  private readonly promptAborts = new Set<AbortController>();
  private channel: ConsentChannel | undefined;
  private disposed = false;

  constructor(
    db: Database,
    private readonly ledger: Ledger,
    options: ConsentEngineOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.promptTimeoutMs = options.promptTimeoutMs ?? DEFAULT_PROMPT_TIMEOUT_MS;
    this.onceWindowMs = options.onceWindowMs ?? DEFAULT_ONCE_WINDOW_MS;
    this.onError = options.onError ?? ((error) => console.error('[consent]', error));
    this.grants = new GrantStore(db);
    this.ruleStore = new RuleStore(db);
    this.rules = this.ruleStore.all().map(compileRule);
    // Grants outlive a restart, but time went on while the host was down: those past their time end now.
    const now = this.clock.now();
    for (const grant of this.grants.active(now)) {
      if (grant.status === 'live' && now >= grant.expiresAt) {
        this.persistEnd(grant, 'expired', grant.agentId, 'the grant ran out while the host was not running');
        continue;
      }
      this.track(grant);
    }
  }

  /** The consent card (or the headless runner's --grant flags). Without one, every prompt is denied. */
  attachChannel(channel: ConsentChannel): Disposable {
    this.channel = channel;
    return toDisposable(() => {
      if (this.channel === channel) this.channel = undefined;
    });
  }

  /**
   * At every use. Never throws for a denial: says why (and records it). An "Allow once" grant is spent by the
   * use it allows.
   */
  check(use: CapabilityUse): CheckResult {
    const prepared = prepareUse(use);
    if (!prepared.ok) return this.deny(use, null, { decision: 'deny', code: 'bad_request', reason: prepared.reason });
    const result = this.evaluate(prepared.use);
    if (result.decision === 'allow') {
      const found = this.active.get(result.grantId!);
      if (found && found.grant.once && found.grant.status === 'live') this.markUsed(found);
      return result;
    }
    return this.deny(use, prepared.use, result);
  }

  /**
   * check() for the host functions: the grant and an AbortSignal that fires the moment it is revoked or runs out
   * (tie the fetch or the write to it), or the typed error the agent gets back.
   */
  authorize(use: CapabilityUse): { grantId: string; signal: AbortSignal } {
    const result = this.check(use);
    if (result.decision === 'allow') return { grantId: result.grantId!, signal: this.signalFor(result.grantId!) };
    throw this.errorFor(use, result);
  }

  /** The typed error for a denied check. */
  errorFor(use: CapabilityUse, result: CheckResult): CapabilityDeniedError | CapabilityRevokedError {
    const capability = typeof use.capability === 'string' ? use.capability : String(use.capability);
    if ((result.code === 'revoked' || result.code === 'expired') && result.grantId) {
      return new CapabilityRevokedError(capability, result.grantId, result.code);
    }
    const target = clip(use.target);
    if (result.code === 'needs_prompt') {
      return new CapabilityDeniedError(capability, target, result.reason, 'this action is asked for each time: request consent for it (omni.consent), or carry on without it');
    }
    if (result.code === 'denied_by_rule') {
      return new CapabilityDeniedError(capability, target, result.reason, 'the user forbids this; do not ask again, use the fallback path');
    }
    return new CapabilityDeniedError(capability, target, result.reason);
  }

  /** Asks the user unless a rule or a live grant decides; 'deny' without a channel, on failure, timeout or an unreadable answer. */
  async request(ask: ConsentAsk): Promise<Decision> {
    return (await this.ask(ask)).decision;
  }

  /** request(), with the grant that allows it (the guest ABI answers its expiry). */
  async ask(ask: ConsentAsk): Promise<ConsentOutcome> {
    const prepared = prepareUse(ask, true);
    const agentId = validId(ask.agentId) ? ask.agentId : 'unknown-agent';
    this.ledger.append({
      type: 'consent.request',
      actor: agentId,
      sessionId: validId(ask.sessionId) ? ask.sessionId : null,
      payload: {
        capability: clip(ask.capability),
        target: recordedTarget(ask.target),
        scope: clip(ask.scope),
        reason: clip(ask.reason),
        durationS: typeof ask.durationS === 'number' ? ask.durationS : null,
        action: prepared.ok && prepared.use.sensitive ? recordedTarget(prepared.use.actionKey) : null,
      },
    });
    const refuse = (code: CheckCode, reason: string, actor?: string): ConsentOutcome => {
      this.deny(ask, prepared.ok ? prepared.use : null, { decision: 'deny', code, reason }, actor);
      return { decision: 'deny', reason };
    };
    if (!prepared.ok) return refuse('bad_request', prepared.reason);
    const use = prepared.use;
    if (typeof ask.reason !== 'string' || ask.reason.trim() === '' || ask.reason.length > MAX_TEXT) {
      return refuse('bad_request', `a consent request needs a reason of 1 to ${MAX_TEXT} characters, saying what the capability is for`);
    }
    if (!Number.isInteger(ask.durationS) || ask.durationS < 1 || ask.durationS > MAX_DURATION_S) {
      return refuse('bad_request', `duration_s must be a whole number of seconds from 1 to ${MAX_DURATION_S}`);
    }
    const scope = this.scopeToGrant(ask, use);
    if (!scope.ok) return refuse('bad_request', scope.reason);

    const current = this.evaluate(use);
    if (current.code === 'denied_by_rule') return refuse('denied_by_rule', current.reason);
    if (current.decision === 'allow') {
      return { decision: 'allow', reason: 'a live grant already covers this', grant: this.active.get(current.grantId!)!.grant };
    }
    const exact = current.code === 'needs_prompt' || this.needsExactAction(use);
    const key = JSON.stringify([use.sessionId, use.agentId, use.capability, use.target, use.actionKey, scope.value, ask.reason, ask.durationS]);
    if (ask.signal) return this.promptUser(use, ask, scope.value, exact);
    const pending = this.pendingAsks.get(key);
    if (pending) return pending;
    const outcome = this.promptUser(use, ask, scope.value, exact).finally(() => this.pendingAsks.delete(key));
    this.pendingAsks.set(key, outcome);
    return outcome;
  }

  /**
   * Grants without a prompt: for answers given elsewhere (the headless runner's --grant flags). `durationS` null
   * is "once".
   */
  grant(
    request: { agentId: string; sessionId: string; capability: string; scope?: string | null; action?: string | null; durationS: number | null; reason?: string },
    actor: string,
  ): ConsentGrant {
    if (!validId(request.agentId) || !validId(request.sessionId)) throw new RangeError('a grant needs an agent id and a session id');
    if (!isKnownCapability(request.capability)) throw new RangeError(`unknown capability "${request.capability}"`);
    const scope = compileScope(request.capability, request.scope ?? null);
    if (!scope.ok) throw new RangeError(scope.reason);
    if (request.durationS !== null && (!Number.isInteger(request.durationS) || request.durationS < 1 || request.durationS > MAX_DURATION_S)) {
      throw new RangeError(`a grant lasts a whole number of seconds from 1 to ${MAX_DURATION_S}, or is "once"`);
    }
    return this.createGrant(
      { agentId: request.agentId, sessionId: request.sessionId, capability: request.capability, scope: scope.source, action: request.action ?? null },
      request.durationS === null ? { kind: 'allow_once' } : { durationMs: request.durationS * 1000 },
      actor,
      { target: null, reason: request.reason ?? null },
    );
  }

  /** Ends a grant at once: work tied to signalFor(grantId) is aborted, onDidRevoke fires. Idempotent. */
  revoke(grantId: string, actor: string): ConsentGrant {
    const found = this.active.get(grantId);
    if (!found) {
      const stored = typeof grantId === 'string' ? this.grants.get(grantId) : undefined;
      if (!stored) throw new GrantNotFoundError(String(grantId));
      return stored;
    }
    return this.end(found, 'revoked', actor, 'revoked by the user');
  }

  /**
   * The signal work in flight under a grant ties itself to; its reason is the CapabilityRevokedError. Already
   * aborted for a grant that has ended or never existed, so such work never starts.
   */
  signalFor(grantId: string): AbortSignal {
    const found = this.active.get(grantId);
    if (found) return found.controller.signal;
    const stored = this.grants.get(grantId);
    if (stored && (stored.status === 'revoked' || stored.status === 'expired')) {
      return AbortSignal.abort(new CapabilityRevokedError(stored.capability, grantId, stored.status));
    }
    return AbortSignal.abort(new CapabilityDeniedError(stored?.capability ?? 'unknown', null, `no live grant ${grantId}`));
  }

  /** Grants not yet ended (live, and used once-grants still in their window), oldest first. */
  list(sessionId?: string): ConsentGrant[] {
    const all = [...this.active.values()].map((a) => a.grant);
    return sessionId === undefined ? all : all.filter((g) => g.sessionId === sessionId);
  }

  /** A standing rule of the user's, which beats any grant. */
  addRule(rule: { effect: 'deny' | 'ask'; agentId?: string | null; capability: string; scope?: string | null }, actor: string): ConsentRule {
    const compiled = compileRule({
      id: newConsentId('rule'),
      effect: rule.effect,
      agentId: rule.agentId ?? null,
      capability: rule.capability,
      scope: rule.scope ?? null,
      createdAt: this.clock.now(),
      createdBy: actor,
    });
    const { matches: _matches, ...stored } = compiled;
    this.ledger.transact(() => {
      this.ruleStore.insert(stored);
      this.ledger.append({ type: 'consent.rule', actor, payload: { ruleId: stored.id, effect: stored.effect, agentId: stored.agentId, capability: stored.capability, scope: stored.scope } });
    });
    this.rules.push(compiled);
    return stored;
  }

  removeRule(ruleId: string, actor: string): boolean {
    const removed = this.ledger.transact(() => {
      const done = this.ruleStore.delete(ruleId);
      if (done) this.ledger.append({ type: 'consent.rule', actor, payload: { ruleId, removed: true } });
      return done;
    });
    if (removed) this.rules = this.rules.filter((r) => r.id !== ruleId);
    return removed;
  }

  listRules(): ConsentRule[] {
    return this.rules.map(({ matches: _matches, ...rule }) => rule);
  }

  /** Stops timers and pending prompts (denied). Grants stay in the database for the next run. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const controller of this.promptAborts) controller.abort(new Error('the host is shutting down'));
    for (const found of this.active.values()) if (found.timer !== undefined) this.clock.clearTimeout(found.timer);
    this.channel = undefined;
    this.revoked.dispose();
    this.changed.dispose();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private needsExactAction(use: PreparedUse): boolean {
    return use.sensitive || this.matchingRules(use).some((r) => r.effect === 'ask');
  }

  private matchingRules(use: PreparedUse): CompiledRule[] {
    return this.rules.filter((r) => (r.agentId === null || r.agentId === use.agentId) && r.capability === use.capability && r.matches(use.target));
  }

  /** deny rule > ask rule / sensitive action > grant > nothing (default deny). Ends grants found past their time. */
  private evaluate(use: PreparedUse): CheckResult {
    const rules = this.matchingRules(use);
    const denyRule = rules.find((r) => r.effect === 'deny');
    if (denyRule) return { decision: 'deny', code: 'denied_by_rule', reason: `a rule of the user's forbids ${use.capability}${denyRule.scope ? ` on ${denyRule.scope}` : ''} (${denyRule.id})` };
    const exact = use.sensitive || rules.some((r) => r.effect === 'ask');
    const covers = (grant: ConsentGrant, matches: ScopeMatcher) =>
      matches(use.target) && (exact ? grant.action === use.actionKey : grant.action === null || grant.action === use.actionKey);

    const now = this.clock.now();
    let chosen: ActiveGrant | undefined;
    for (const found of [...(this.byUse.get(indexKey(use.sessionId, use.agentId, use.capability)) ?? [])]) {
      if (found.grant.status !== 'live') continue;
      // A timer can fire late; the clock decides, not the timer.
      if (now >= found.grant.expiresAt) {
        this.end(found, 'expired', found.grant.agentId, 'the grant ran out');
        continue;
      }
      if (!covers(found.grant, found.matches)) continue;
      // Keep an "Allow once" for when nothing else covers the use.
      if (!chosen || (chosen.grant.once && !found.grant.once)) chosen = found;
    }
    if (chosen) return { decision: 'allow', code: 'granted', reason: 'a live grant covers this use', grantId: chosen.grant.id };

    for (const ended of this.grants.ended(use.sessionId, use.agentId, use.capability)) {
      const matches = compileScope(ended.capability, ended.scope);
      if (!matches.ok || !covers(ended, matches.matches)) continue;
      const why = ended.status === 'revoked' ? 'revoked' : 'expired';
      return { decision: 'deny', code: why, reason: `the grant that covered this was ${why} (${ended.id})`, grantId: ended.id };
    }
    if (exact) {
      return {
        decision: 'deny',
        code: 'needs_prompt',
        reason: use.sensitive ? 'a sensitive action needs the user\'s consent for exactly this action' : 'a rule of the user\'s asks before every use of this',
      };
    }
    return { decision: 'deny', code: 'no_grant', reason: 'no live grant covers this use (default deny)' };
  }

  /** Records a denial (one ledger entry) and hands the result back. */
  private deny(use: CapabilityUse, prepared: PreparedUse | null, result: CheckResult, actor?: string): CheckResult {
    this.ledger.append({
      type: 'consent.deny',
      actor: actor ?? (validId(use?.agentId) ? use.agentId : 'unknown-agent'),
      sessionId: validId(use?.sessionId) ? use.sessionId : null,
      payload: {
        capability: clip(use?.capability),
        target: recordedTarget(use?.target),
        scope: null,
        action: prepared && (prepared.sensitive || result.code === 'needs_prompt') ? recordedTarget(prepared.actionKey) : null,
        code: result.code,
        reason: result.reason,
        grantId: result.grantId ?? null,
      },
    });
    return result;
  }

  private scopeToGrant(ask: ConsentAsk, use: PreparedUse): { ok: true; value: string | null } | { ok: false; reason: string } {
    if (ask.scope === undefined || ask.scope === null) return { ok: true, value: scopeForTarget(use.capability, use.target) };
    const compiled = compileScope(use.capability, ask.scope);
    if (!compiled.ok) return compiled;
    if (ask.target !== undefined && !compiled.matches(use.target)) {
      return { ok: false, reason: `the requested scope "${ask.scope}" does not cover the target "${ask.target}"` };
    }
    return { ok: true, value: compiled.source };
  }

  private async promptUser(use: PreparedUse, ask: ConsentAsk, scope: string | null, exact: boolean): Promise<ConsentOutcome> {
    const deny = (reason: string, actor?: string): ConsentOutcome => {
      try {
        this.deny(ask, use, { decision: 'deny', code: exact ? 'needs_prompt' : 'no_grant', reason }, actor);
      } catch (error) {
        // A ledger closed under a pending prompt (shutdown) must not turn the denial into something else.
        this.onError(error);
      }
      return { decision: 'deny', reason };
    };
    const channel = this.channel;
    if (!channel || this.disposed) return deny('no consent channel is attached, so nobody could be asked (fail closed)');
    const askedAt = this.clock.now();
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
      askedAt,
      deadline: askedAt + this.promptTimeoutMs,
    };
    const abort = new AbortController();
    this.promptAborts.add(abort);
    const timer = this.clock.setTimeout(() => abort.abort(new Error(`no answer within ${Math.round(this.promptTimeoutMs / 1000)} s`)), this.promptTimeoutMs);
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
      this.clock.clearTimeout(timer);
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
    const grant = this.createGrant(
      { agentId: use.agentId, sessionId: use.sessionId, capability: use.capability, scope, action: exact ? use.actionKey : null },
      parsed.data.kind === 'allow_once' ? { kind: 'allow_once' } : { durationMs: parsed.data.minutes * 60_000 },
      'user',
      { target: use.rawTarget, reason: ask.reason },
    );
    return { decision: 'allow', reason: parsed.data.kind === 'allow_once' ? 'the user allowed it once' : `the user allowed it for ${parsed.data.minutes} min`, grant };
  }

  private createGrant(
    what: Pick<ConsentGrant, 'agentId' | 'sessionId' | 'capability' | 'scope' | 'action'>,
    length: { kind: 'allow_once' } | { durationMs: number },
    actor: string,
    context: { target: string | null; reason: string | null },
  ): ConsentGrant {
    const now = this.clock.now();
    const once = 'kind' in length;
    const expiresAt = now + (once ? this.onceWindowMs : length.durationMs);
    const grant: ConsentGrant = { id: newConsentId('grant'), ...what, once, expiresAt, grantedAt: now, grantedBy: actor, status: 'live', endedAt: null, endedBy: null };
    this.ledger.transact(() => {
      this.grants.insert(grant);
      this.ledger.append({
        type: 'consent.grant',
        actor,
        sessionId: grant.sessionId,
        payload: {
          ...grantEntryFields(grant),
          target: recordedTarget(context.target),
          reason: context.reason,
          once,
          durationS: Math.round((expiresAt - now) / 1000),
          expiresAt,
        },
      });
    });
    this.track(grant);
    this.changed.fire({ kind: 'granted', grant });
    return grant;
  }

  /** Keeps a not-yet-ended grant in memory, with its abort controller and expiry timer. */
  private track(grant: ConsentGrant): void {
    const scope = compileScope(grant.capability, grant.scope);
    // A stored scope that no longer parses (a rule change between versions) covers nothing.
    const matches: ScopeMatcher = scope.ok ? scope.matches : () => false;
    const found: ActiveGrant = { grant, matches, controller: new AbortController(), timer: undefined };
    this.active.set(grant.id, found);
    const key = indexKey(grant.sessionId, grant.agentId, grant.capability);
    let set = this.byUse.get(key);
    if (!set) this.byUse.set(key, (set = new Set()));
    set.add(found);
    this.arm(found);
  }

  private arm(found: ActiveGrant): void {
    const delay = found.grant.expiresAt - this.clock.now();
    found.timer = this.clock.setTimeout(() => {
      found.timer = undefined;
      if (this.active.get(found.grant.id) !== found) return;
      if (this.clock.now() < found.grant.expiresAt) return this.arm(found);
      try {
        this.end(found, 'expired', found.grant.agentId, 'the grant ran out');
      } catch (error) {
        this.onError(error);
      }
    }, Math.min(Math.max(0, delay), MAX_TIMER_MS));
  }

  private untrack(found: ActiveGrant): void {
    if (found.timer !== undefined) this.clock.clearTimeout(found.timer);
    found.timer = undefined;
    this.active.delete(found.grant.id);
    const key = indexKey(found.grant.sessionId, found.grant.agentId, found.grant.capability);
    const set = this.byUse.get(key);
    set?.delete(found);
    if (set && set.size === 0) this.byUse.delete(key);
  }

  private markUsed(found: ActiveGrant): void {
    found.grant = { ...found.grant, status: 'used' };
    this.grants.markUsed(found.grant.id);
    this.changed.fire({ kind: 'used', grant: found.grant });
  }

  /**
   * Revocation or expiry. A used once-grant reaching the end of its window simply leaves memory: the use it
   * allowed is not cut short by the window. Everything else is ended for good: the row, one ledger entry, the
   * abort of work in flight, the events.
   */
  private end(found: ActiveGrant, why: 'revoked' | 'expired', actor: string, reason: string): ConsentGrant {
    this.untrack(found);
    if (why === 'expired' && found.grant.status === 'used') return found.grant;
    const now = this.clock.now();
    const ended: ConsentGrant = { ...found.grant, status: why, endedAt: now, endedBy: actor };
    let failure: unknown;
    try {
      this.persistEnd(found.grant, why, actor, reason);
    } catch (error) {
      // The grant is dead in this run whatever the database says; the caller hears of the failure.
      failure = error;
    }
    found.controller.abort(new CapabilityRevokedError(found.grant.capability, found.grant.id, why));
    this.revoked.fire({ grant: ended, reason: why, actor });
    this.changed.fire({ kind: why, grant: ended });
    if (failure) throw failure;
    return ended;
  }

  private persistEnd(grant: ConsentGrant, why: 'revoked' | 'expired', actor: string, reason: string): void {
    const now = this.clock.now();
    this.ledger.transact(() => {
      if (!this.grants.end(grant.id, why, now, actor)) return;
      this.ledger.append({
        type: why === 'revoked' ? 'consent.revoke' : 'consent.expire',
        actor,
        sessionId: grant.sessionId,
        payload: {
          ...grantEntryFields(grant),
          reason,
          expiresAt: grant.expiresAt,
          durationS: Math.round((now - grant.grantedAt) / 1000),
        },
      });
    });
  }
}
