import { randomBytes } from 'node:crypto';
import { DisposableStore, Emitter, type Disposable } from '../../../src-preload/rpc';
import type { ConsentEngine } from '../consent/consentEngine';
import type { LedgerAppend } from '../ledger/ledger';
import type { Connection } from './connectionStore';
import { HandleInvalidError } from './vaultErrors';

/** What an agent holds instead of a token: bound to one agent in one session, one grant and one connection. */
export interface HandleRecord {
  /** For the ledger and the Connections view ("which agents hold handles"); not usable as a handle. */
  handleId: string;
  agentId: string;
  sessionId: string;
  /** `oauth:<provider>.<scope>` */
  capability: string;
  provider: string;
  scope: string;
  connectionId: string;
  /** The consent grant the handle lives by: its end ends the handle. */
  grantId: string;
  /**
   * Issued under an "Allow once": the handle spent the grant and is its only holder, for one run. It ends with that
   * run (endWithRun) and a later run asks again; many requests within the run are fine.
   */
  once: boolean;
  issuedAt: number;
}

/** A handle as the Connections view lists it. */
export type HandleInfo = HandleRecord;

export interface HandleInvalidated {
  record: HandleRecord;
  reason: string;
}

/** A handle checked for one use: who holds it, and the signal that aborts the use if the handle ends meanwhile. */
export interface ResolvedHandle {
  record: HandleRecord;
  signal: AbortSignal;
}

interface LiveHandle {
  value: string;
  record: HandleRecord;
  controller: AbortController;
  /** Dummy API keys handed to native processes for this handle (credentialProxy.ts). */
  proxyKeys: Set<string>;
}

export interface CredentialHandlesOptions {
  consent: Pick<ConsentEngine, 'claim' | 'authorizeHeld' | 'release' | 'onDidRevoke'>;
  audit: (entry: LedgerAppend) => void;
  /** The connection an `oauth:<provider>.<scope>` grant is served from; null when there is none. */
  findConnection: (provider: string, scope: string) => Connection | null;
  now?: () => number;
}

const OAUTH_CAPABILITY = /^oauth:([a-z][a-z0-9_-]*)\.(\S+)$/;

/** `oauth:google.drive.readonly` → google, drive.readonly (the provider ends at the first dot). */
export function parseOAuthCapability(capability: string): { provider: string; scope: string } | null {
  const match = OAUTH_CAPABILITY.exec(capability);
  return match ? { provider: match[1], scope: match[2] } : null;
}

/**
 * Opaque, session-bound handles to credentials (spec §6: agents never see raw tokens). A handle is random (never
 * derived from the token), valid only for the agent and session it was issued to, and only while the consent grant
 * for `oauth:<provider>.<scope>` it was issued under is live: the grant's expiry or revocation, and the connection's
 * disconnect, end the handle at once and abort the work in flight under it. Handles live in memory only: a host
 * restart ends them all.
 */
export class CredentialHandles implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly byValue = new Map<string, LiveHandle>();
  private readonly byProxyKey = new Map<string, LiveHandle>();
  private readonly invalidated = this.owner.add(new Emitter<HandleInvalidated>());
  /** A handle ended (its grant was revoked or ran out, its connection went away). */
  readonly onDidInvalidate = this.invalidated.event;
  private readonly issued = this.owner.add(new Emitter<HandleRecord>());
  /** A new handle was issued (the Connections view lists which agents hold handles). */
  readonly onDidIssue = this.issued.event;
  private readonly now: () => number;

  constructor(private readonly o: CredentialHandlesOptions) {
    this.now = o.now ?? Date.now;
    this.owner.add(
      o.consent.onDidRevoke(({ grant, reason }) => {
        for (const live of [...this.byValue.values()]) {
          if (live.record.grantId === grant.id) this.invalidate(live, `the grant for ${grant.capability} ${reason === 'expired' ? 'ran out' : 'was revoked'}`, reason === 'expired' ? 'grant_expired' : 'grant_revoked');
        }
      }),
    );
  }

  /**
   * A handle for an agent holding a live grant of `capability` (checked here, through the consent engine). The same
   * agent asking again under the same timed grant gets the same handle. An "Allow once" is spent by the issue and
   * held by the new handle alone, for the run it was issued for: the caller ends it with endWithRun() when the run
   * ends. The connection is looked for first, so a once-grant is not spent on a handle that cannot be issued.
   */
  issue(who: { agentId: string; sessionId: string; capability: string }): { handle: string; record: HandleRecord } {
    const parsed = parseOAuthCapability(who.capability);
    if (!parsed) throw new HandleInvalidError(`"${who.capability}" is not an oauth:<provider>.<scope> capability`, 'ask for a capability such as oauth:github.repo');
    const connection = this.o.findConnection(parsed.provider, parsed.scope);
    if (!connection) {
      throw new HandleInvalidError(
        `there is no working ${parsed.provider} connection with the scope "${parsed.scope}"`,
        `the user has to connect ${parsed.provider} (with ${parsed.scope}) in Connections; carry on without it meanwhile`,
      );
    }
    const handleId = `hdl_${randomBytes(6).toString('hex')}`;
    let claimed: { grantId: string; once: boolean };
    try {
      claimed = this.o.consent.claim({ agentId: who.agentId, sessionId: who.sessionId, capability: who.capability }, holderOf(handleId));
    } catch (error) {
      throw new HandleInvalidError(`no live grant of ${who.capability}: ${(error as Error).message}`, `ask for ${who.capability} with omni.consent first`);
    }
    const { grantId, once } = claimed;
    for (const live of once ? [] : this.byValue.values()) {
      const r = live.record;
      if (r.agentId === who.agentId && r.sessionId === who.sessionId && r.capability === who.capability && r.grantId === grantId && r.connectionId === connection.id) {
        return { handle: live.value, record: r };
      }
    }
    const record: HandleRecord = {
      handleId,
      agentId: who.agentId,
      sessionId: who.sessionId,
      capability: who.capability,
      provider: parsed.provider,
      scope: parsed.scope,
      connectionId: connection.id,
      grantId,
      once,
      issuedAt: this.now(),
    };
    const value = `omh_${randomBytes(24).toString('base64url')}`;
    this.byValue.set(value, { value, record, controller: new AbortController(), proxyKeys: new Set() });
    this.o.audit({
      type: 'credential.handle_issue',
      actor: `agent:${who.agentId}`,
      sessionId: who.sessionId,
      payload: { handleId: record.handleId, connectionId: connection.id, provider: parsed.provider, scope: parsed.scope, grantId, forOneRun: once },
    });
    this.issued.fire(record);
    return { handle: value, record };
  }

  /**
   * Checks a handle for one use, right now: it must exist, belong to this agent and session (when the caller says
   * who is using it), and its grant must still be live in the consent engine. Throws HandleInvalidError otherwise.
   */
  resolve(handle: string, who?: { agentId: string; sessionId: string }): ResolvedHandle {
    const live = this.byValue.get(handle);
    if (!live) throw new HandleInvalidError('the credential handle is unknown, or has ended (its grant was revoked or ran out, or the connection was removed)', 'ask for the capability again with omni.consent');
    return this.check(live, who);
  }

  /** A dummy API key for a native process, standing for `handle` at the credential proxy only. */
  proxyKeyFor(handle: string): string {
    const live = this.byValue.get(handle);
    if (!live) throw new HandleInvalidError('the credential handle is unknown or has ended', 'issue a new handle');
    const key = `omni-proxy-${randomBytes(18).toString('base64url')}`;
    live.proxyKeys.add(key);
    this.byProxyKey.set(key, live);
    return key;
  }

  /**
   * Ends one dummy key (the process it was made for has ended) while the handle lives on: the next request with it is
   * refused like a revoked one. Unknown keys are ignored.
   */
  dropProxyKey(key: string): void {
    const live = this.byProxyKey.get(key);
    if (!live) return;
    this.byProxyKey.delete(key);
    live.proxyKeys.delete(key);
  }

  /** resolve() for the proxy: the dummy key a process presented. */
  resolveProxyKey(key: string): ResolvedHandle {
    const live = this.byProxyKey.get(key);
    if (!live) throw new HandleInvalidError('this key is not (or no longer) bound to a credential: its grant was revoked or ran out, or the connection was removed', 'ask the user to grant access again');
    return this.check(live);
  }

  /**
   * The run a handle was issued for has ended. A handle issued under an "Allow once" ends with it (ledgered as
   * credential.handle_revoke, code run_ended) and its spent grant is released: the next run asks again. A handle
   * under a timed grant lives on with its grant (other runs of the agent in the session may share it). Unknown or
   * already ended handles are ignored.
   */
  endWithRun(handle: string): void {
    const live = this.byValue.get(handle);
    if (!live?.record.once) return;
    this.invalidate(live, 'the run it was allowed once for has ended', 'run_ended');
  }

  /** Handles of one connection (or all), for the Connections view. */
  list(connectionId?: string): HandleInfo[] {
    return [...this.byValue.values()].map((l) => l.record).filter((r) => connectionId === undefined || r.connectionId === connectionId);
  }

  /** Ends every handle to a connection (disconnect, a refused refresh token). Returns how many ended. */
  invalidateConnection(connectionId: string, reason: string): number {
    let count = 0;
    for (const live of [...this.byValue.values()]) {
      if (live.record.connectionId !== connectionId) continue;
      this.invalidate(live, reason, 'connection_ended');
      count++;
    }
    return count;
  }

  dispose(): void {
    for (const live of [...this.byValue.values()]) this.forget(live, new HandleInvalidError('the host is shutting down', 'none'));
    this.owner.dispose();
  }

  private check(live: LiveHandle, who?: { agentId: string; sessionId: string }): ResolvedHandle {
    const r = live.record;
    if (who && (who.agentId !== r.agentId || who.sessionId !== r.sessionId)) {
      throw new HandleInvalidError('this credential handle was issued to another agent or session', 'use only handles your own omni.consent returned');
    }
    let grantSignal: AbortSignal;
    try {
      // At every use, like every other capability: default deny, expiry decided by the clock.
      grantSignal = this.o.consent.authorizeHeld({ agentId: r.agentId, sessionId: r.sessionId, capability: r.capability }, holderOf(r.handleId)).signal;
    } catch (error) {
      this.invalidate(live, `its grant is no longer live (${(error as Error).message})`, 'grant_ended');
      throw new HandleInvalidError(`the credential handle has ended: ${(error as Error).message}`, `ask for ${r.capability} again with omni.consent`);
    }
    return { record: r, signal: AbortSignal.any([grantSignal, live.controller.signal]) };
  }

  private invalidate(live: LiveHandle, reason: string, code: string): void {
    if (!this.byValue.has(live.value)) return;
    const error = new HandleInvalidError(`the credential handle has ended: ${reason}`, `ask for ${live.record.capability} again, or carry on without it`);
    this.forget(live, error);
    this.o.audit({
      type: 'credential.handle_revoke',
      actor: 'host',
      sessionId: live.record.sessionId,
      payload: { handleId: live.record.handleId, connectionId: live.record.connectionId, agentId: live.record.agentId, code, reason },
    });
    this.invalidated.fire({ record: live.record, reason });
  }

  private forget(live: LiveHandle, error: HandleInvalidError): void {
    this.byValue.delete(live.value);
    for (const key of live.proxyKeys) this.byProxyKey.delete(key);
    live.controller.abort(error);
    // A spent once-grant held by this handle has nothing left to cover (no-op for a timed grant).
    if (live.record.once) this.o.consent.release(live.record.grantId, holderOf(live.record.handleId));
  }
}

/** Who holds a spent once-grant, to the consent engine: the handle it was spent on. */
const holderOf = (handleId: string): string => `credential handle ${handleId}`;
