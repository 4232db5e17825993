import type { ConsentGrant, GrantChange } from '../../../src-preload/contract';
import type { Disposable, Emitter } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import { isKnownCapability } from './capability';
import type { ConsentChannel } from './consentChannel';
import { CapabilityDeniedError, CapabilityRevokedError, GrantNotFoundError } from './consentErrors';
import { ConsentPrompter } from './consentPrompter';
import type { ConsentRule } from './consentRules';
import { systemClock, type Clock } from './clock';
import type { CapabilityUse, CheckCode, CheckResult, ConsentAsk, ConsentEngineOptions, ConsentOutcome, Decision, RevokeEvent } from './consentTypes';
import { recordDenial } from './denialRecord';
import { evaluateUse } from './evaluateUse';
import { GrantStore } from './grantStore';
import { LiveGrants } from './liveGrants';
import { clip, MAX_TEXT, prepareUse, validId, type PreparedUse } from './preparedUse';
import { DEFAULT_PROMPT_TIMEOUT_MS } from './promptTimeoutSetting';
import { recordedTarget } from './recordedTarget';
import { RuleBook } from './ruleBook';
import { compileScope, scopeForTarget } from './scope';

export type { CapabilityUse, CheckCode, CheckResult, ConsentAsk, ConsentEngineOptions, ConsentOutcome, Decision, RevokeEvent } from './consentTypes';

const DEFAULT_ONCE_WINDOW_MS = 10 * 60_000;
const MAX_DURATION_S = 24 * 60 * 60;

/**
 * The consent engine (docs/agent-runtime.md): default deny, a check at every use against live grants, the user's
 * rules first (deny > ask > allow), prompts through a pluggable channel that fails closed, grants that expire and
 * can be revoked mid-run (aborting the work tied to them), and one ledger entry for every request, grant,
 * denial, expiry and revocation.
 *
 * This class is the façade; the parts are liveGrants.ts (grants in memory and SQLite, their end), grantExpiry.ts
 * (expiry timers), ruleBook.ts (the user's rules), evaluateUse.ts (what decides a use) and consentPrompter.ts
 * (asking the user, coalescing identical asks).
 */
export class ConsentEngine implements Disposable {
  /** A grant ended before its time (reason 'revoked') or ran out (reason 'expired'). */
  readonly onDidRevoke: Emitter<RevokeEvent>['event'];
  /** Every grant made, used, revoked or expired, for the grants panel. */
  readonly onDidChangeGrant: Emitter<GrantChange>['event'];

  private readonly clock: Clock;
  private readonly grants: LiveGrants;
  private readonly rules: RuleBook;
  private readonly prompter: ConsentPrompter;
  private disposed = false;

  constructor(
    db: Database,
    private readonly ledger: Ledger,
    options: ConsentEngineOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    const onError = options.onError ?? ((error: unknown) => console.error('[consent]', error));
    this.grants = new LiveGrants(new GrantStore(db), ledger, this.clock, options.onceWindowMs ?? DEFAULT_ONCE_WINDOW_MS, onError);
    this.onDidRevoke = this.grants.onDidRevoke;
    this.onDidChangeGrant = this.grants.onDidChangeGrant;
    this.rules = new RuleBook(db, ledger, this.clock);
    this.prompter = new ConsentPrompter(ledger, this.grants, this.clock, options.promptTimeoutMs ?? DEFAULT_PROMPT_TIMEOUT_MS, onError);
    this.grants.restore();
  }

  /** The consent card (or the headless runner's --grant flags). Without one, every prompt is denied. */
  attachChannel(channel: ConsentChannel): Disposable {
    return this.prompter.attachChannel(channel);
  }

  /**
   * At every use. Never throws for a denial: says why (and records it). An "Allow once" grant is spent by the
   * use it allows.
   */
  check(use: CapabilityUse): CheckResult {
    const prepared = prepareUse(use);
    if (!prepared.ok) return recordDenial(this.ledger, use, null, { decision: 'deny', code: 'bad_request', reason: prepared.reason });
    const result = this.evaluate(prepared.use);
    if (result.decision === 'allow') {
      const found = this.grants.get(result.grantId!);
      if (found && found.grant.once && found.grant.status === 'live') this.grants.markUsed(found);
      return result;
    }
    return recordDenial(this.ledger, use, prepared.use, result);
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

  /**
   * authorize() for a use that lasts, such as issuing a credential handle for one run of an agent. A timed grant is
   * checked as usual. An "Allow once" is spent here (ledgered as consent.use, held by `holder`) and then covers the
   * holder's later uses through authorizeHeld() until release(): "once" means for this one holder (one run), not
   * for its first request. Revoking it still aborts the holder's work at once.
   */
  claim(use: CapabilityUse, holder: string): { grantId: string; signal: AbortSignal; once: boolean } {
    const prepared = prepareUse(use);
    if (!prepared.ok) throw this.errorFor(use, recordDenial(this.ledger, use, null, { decision: 'deny', code: 'bad_request', reason: prepared.reason }));
    const result = this.evaluate(prepared.use);
    if (result.decision !== 'allow') throw this.errorFor(use, recordDenial(this.ledger, use, prepared.use, result));
    const found = this.grants.get(result.grantId!)!;
    const once = found.grant.once;
    if (once && found.grant.status === 'live') this.grants.hold(found, holder, validId(use.agentId) ? use.agentId : 'unknown-agent');
    return { grantId: found.grant.id, signal: found.controller.signal, once };
  }

  /**
   * authorize() for a later use by the holder of a claim(): its held once-grant covers the use (rules still apply:
   * a deny rule made meanwhile refuses it); otherwise any live grant does, as authorize() decides.
   */
  authorizeHeld(use: CapabilityUse, holder: string): { grantId: string; signal: AbortSignal } {
    const prepared = prepareUse(use);
    if (!prepared.ok) throw this.errorFor(use, recordDenial(this.ledger, use, null, { decision: 'deny', code: 'bad_request', reason: prepared.reason }));
    const result = evaluateUse(prepared.use, this.rules, this.grants, this.clock.now(), holder);
    if (result.decision !== 'allow') throw this.errorFor(use, recordDenial(this.ledger, use, prepared.use, result));
    const found = this.grants.get(result.grantId!)!;
    if (found.grant.once && found.grant.status === 'live') this.grants.markUsed(found);
    return { grantId: found.grant.id, signal: found.controller.signal };
  }

  /** The holder of a claim() has ended (its run is over): a once-grant it held is spent for good. No-op otherwise. */
  release(grantId: string, holder: string): void {
    this.grants.release(grantId, holder);
  }

  /**
   * A run has ended: the "Allow once" grants among `grantIds` that it spent (status used, not held by a run through
   * claim()) are no longer in flight and leave the grants list. Live and timed grants are untouched.
   */
  retireUsed(grantIds: Iterable<string>): void {
    for (const grantId of grantIds) {
      const found = this.grants.get(grantId);
      if (found && found.grant.once && found.grant.status === 'used' && found.heldBy === null) this.grants.retire(found);
    }
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
      recordDenial(this.ledger, ask, prepared.ok ? prepared.use : null, { decision: 'deny', code, reason }, actor);
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
      return { decision: 'allow', reason: 'a live grant already covers this', grant: this.grants.get(current.grantId!)!.grant };
    }
    const exact = current.code === 'needs_prompt' || this.rules.needsExactAction(use);
    return this.prompter.prompt(use, ask, scope.value, exact);
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
    return this.grants.create(
      { agentId: request.agentId, sessionId: request.sessionId, capability: request.capability, scope: scope.source, action: request.action ?? null },
      request.durationS === null ? { kind: 'allow_once' } : { durationMs: request.durationS * 1000 },
      actor,
      { target: null, reason: request.reason ?? null },
    );
  }

  /** Ends a grant at once: work tied to signalFor(grantId) is aborted, onDidRevoke fires. Idempotent. */
  revoke(grantId: string, actor: string): ConsentGrant {
    const found = this.grants.get(grantId);
    if (!found) {
      const stored = typeof grantId === 'string' ? this.grants.store.get(grantId) : undefined;
      if (!stored) throw new GrantNotFoundError(String(grantId));
      return stored;
    }
    return this.grants.end(found, 'revoked', actor, 'revoked by the user');
  }

  /**
   * The signal work in flight under a grant ties itself to; its reason is the CapabilityRevokedError. Already
   * aborted for a grant that has ended or never existed, so such work never starts.
   */
  signalFor(grantId: string): AbortSignal {
    const found = this.grants.get(grantId);
    if (found) return found.controller.signal;
    const stored = this.grants.store.get(grantId);
    if (stored && (stored.status === 'revoked' || stored.status === 'expired')) {
      return AbortSignal.abort(new CapabilityRevokedError(stored.capability, grantId, stored.status));
    }
    return AbortSignal.abort(new CapabilityDeniedError(stored?.capability ?? 'unknown', null, `no live grant ${grantId}`));
  }

  /** Grants not yet ended (live, and used once-grants still in their window), oldest first. */
  list(sessionId?: string): ConsentGrant[] {
    const all = this.grants.all();
    return sessionId === undefined ? all : all.filter((g) => g.sessionId === sessionId);
  }

  /** A standing rule of the user's, which beats any grant. */
  addRule(rule: { effect: 'deny' | 'ask'; agentId?: string | null; capability: string; scope?: string | null }, actor: string): ConsentRule {
    return this.rules.add(rule, actor);
  }

  removeRule(ruleId: string, actor: string): boolean {
    return this.rules.remove(ruleId, actor);
  }

  listRules(): ConsentRule[] {
    return this.rules.list();
  }

  /** Stops timers and pending prompts (denied). Grants stay in the database for the next run. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.prompter.dispose();
    this.grants.dispose();
  }

  private evaluate(use: PreparedUse): CheckResult {
    return evaluateUse(use, this.rules, this.grants, this.clock.now());
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
}
