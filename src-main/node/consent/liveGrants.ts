import type { ConsentGrant, GrantChange } from '../../../src-preload/contract';
import { Emitter, type Disposable } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import type { Clock } from './clock';
import { CapabilityRevokedError } from './consentErrors';
import { newConsentId } from './consentIds';
import type { RevokeEvent } from './consentTypes';
import { grantEntryFields } from './grantEntryFields';
import { GrantExpiry } from './grantExpiry';
import type { GrantStore } from './grantStore';
import { recordedTarget } from './recordedTarget';
import { compileScope, type ScopeMatcher } from './scope';

/** A grant not yet ended, with its compiled scope and the controller that aborts the work tied to it. */
export interface ActiveGrant {
  grant: ConsentGrant;
  matches: ScopeMatcher;
  controller: AbortController;
  /**
   * An "Allow once" spent by something that lives on (a credential handle for one run): who holds it. Until released
   * it stays usable by that holder only, with no window to run out, and revoking it still aborts the holder's work.
   */
  heldBy: string | null;
}

export type GrantLength = { kind: 'allow_once' } | { durationMs: number };

const indexKey = (sessionId: string, agentId: string, capability: string) => `${sessionId}\u0000${agentId}\u0000${capability}`;

/**
 * The grants that have not ended, in memory (indexed by session, agent and capability for the check at every use)
 * and in SQLite: how a grant is made, spent, and ended (revoked or expired) with its ledger entry, the abort of
 * work in flight and the events for the grants panel.
 */
export class LiveGrants implements Disposable {
  private readonly revoked = new Emitter<RevokeEvent>();
  readonly onDidRevoke = this.revoked.event;
  private readonly changed = new Emitter<GrantChange>();
  readonly onDidChangeGrant = this.changed.event;

  private readonly active = new Map<string, ActiveGrant>();
  private readonly byUse = new Map<string, Set<ActiveGrant>>();
  private readonly expiry: GrantExpiry;

  constructor(
    readonly store: GrantStore,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
    private readonly onceWindowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.expiry = new GrantExpiry(clock, (grantId) => this.expireDue(grantId));
  }

  /**
   * Takes up the grants of the last run. Time went on while the host was down: those past their time end now. A
   * used "Allow once" is not taken up: the run that spent it ended with the host, so nothing is in flight on it.
   */
  restore(): void {
    const now = this.clock.now();
    for (const grant of this.store.active(now)) {
      if (grant.status === 'used') continue;
      if (grant.status === 'live' && now >= grant.expiresAt) {
        this.persistEnd(grant, 'expired', grant.agentId, 'the grant ran out while the host was not running');
        continue;
      }
      this.track(grant);
    }
  }

  get(grantId: string): ActiveGrant | undefined {
    return this.active.get(grantId);
  }

  /** The not-yet-ended grants of one agent for one capability in one session (a copy: ending one is safe). */
  candidates(sessionId: string, agentId: string, capability: string): ActiveGrant[] {
    return [...(this.byUse.get(indexKey(sessionId, agentId, capability)) ?? [])];
  }

  /** Oldest first. */
  all(): ConsentGrant[] {
    return [...this.active.values()].map((a) => a.grant);
  }

  create(
    what: Pick<ConsentGrant, 'agentId' | 'sessionId' | 'capability' | 'scope' | 'action'>,
    length: GrantLength,
    actor: string,
    context: { target: string | null; reason: string | null },
  ): ConsentGrant {
    const now = this.clock.now();
    const once = 'kind' in length;
    const expiresAt = now + (once ? this.onceWindowMs : length.durationMs);
    const grant: ConsentGrant = { id: newConsentId('grant'), ...what, once, expiresAt, grantedAt: now, grantedBy: actor, status: 'live', endedAt: null, endedBy: null };
    this.ledger.transact(() => {
      this.store.insert(grant);
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

  /** An "Allow once" is spent by the use it allows. */
  markUsed(found: ActiveGrant): void {
    found.grant = { ...found.grant, status: 'used' };
    this.store.markUsed(found.grant.id);
    this.changed.fire({ kind: 'used', grant: found.grant });
  }

  /**
   * An "Allow once" spent by a use that lasts (issuing a credential handle for one run): the grant is used up for
   * everyone else, but `holder` may go on using it until release(). Its once-window no longer applies (the run may
   * outlast it); revocation still ends it at once.
   */
  hold(found: ActiveGrant, holder: string, actor: string): void {
    found.grant = { ...found.grant, status: 'used' };
    found.heldBy = holder;
    this.expiry.disarm(found.grant.id);
    this.ledger.transact(() => {
      this.store.markUsed(found.grant.id);
      this.ledger.append({
        type: 'consent.use',
        actor,
        sessionId: found.grant.sessionId,
        payload: { ...grantEntryFields(found.grant), once: true, heldBy: holder, reason: `the "Allow once" is spent by ${holder}, which may use it until it ends` },
      });
    });
    this.changed.fire({ kind: 'used', grant: found.grant });
  }

  /** A spent once-grant whose use is over (its run ended): it leaves memory and the grants panel. */
  retire(found: ActiveGrant): void {
    this.untrack(found);
    this.changed.fire({ kind: 'spent', grant: found.grant });
  }

  /** The holder of a spent once-grant has ended (its run is over): the grant leaves memory and the grants panel. */
  release(grantId: string, holder: string): boolean {
    const found = this.active.get(grantId);
    if (!found || found.heldBy !== holder) return false;
    this.untrack(found);
    this.changed.fire({ kind: 'spent', grant: found.grant });
    return true;
  }

  /**
   * Revocation or expiry. A used once-grant reaching the end of its window simply leaves memory: the use it
   * allowed is not cut short by the window. Everything else is ended for good: the row, one ledger entry, the
   * abort of work in flight, the events.
   */
  end(found: ActiveGrant, why: 'revoked' | 'expired', actor: string, reason: string): ConsentGrant {
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

  /** Stops the expiry timers; the grants stay in the database for the next run. */
  dispose(): void {
    this.expiry.dispose();
    this.revoked.dispose();
    this.changed.dispose();
  }

  private expireDue(grantId: string): void {
    const found = this.active.get(grantId);
    if (!found) return;
    try {
      this.end(found, 'expired', found.grant.agentId, 'the grant ran out');
    } catch (error) {
      this.onError(error);
    }
  }

  private track(grant: ConsentGrant): void {
    const scope = compileScope(grant.capability, grant.scope);
    // A stored scope that no longer parses (a rule change between versions) covers nothing.
    const matches: ScopeMatcher = scope.ok ? scope.matches : () => false;
    const found: ActiveGrant = { grant, matches, controller: new AbortController(), heldBy: null };
    this.active.set(grant.id, found);
    const key = indexKey(grant.sessionId, grant.agentId, grant.capability);
    let set = this.byUse.get(key);
    if (!set) this.byUse.set(key, (set = new Set()));
    set.add(found);
    this.expiry.arm(grant.id, grant.expiresAt);
  }

  private untrack(found: ActiveGrant): void {
    this.expiry.disarm(found.grant.id);
    this.active.delete(found.grant.id);
    const key = indexKey(found.grant.sessionId, found.grant.agentId, found.grant.capability);
    const set = this.byUse.get(key);
    set?.delete(found);
    if (set && set.size === 0) this.byUse.delete(key);
  }

  private persistEnd(grant: ConsentGrant, why: 'revoked' | 'expired', actor: string, reason: string): void {
    const now = this.clock.now();
    this.ledger.transact(() => {
      if (!this.store.end(grant.id, why, now, actor)) return;
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
