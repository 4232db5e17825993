import type { ConsentGrant } from '../../src-preload/contract';
import type { CapabilityUse, ConsentAsk, ConsentOutcome, Decision } from '../../src-main/node/consent/consentEngine';
import { CapabilityDeniedError, CapabilityRevokedError } from '../../src-main/node/consent/consentErrors';
import type { SandboxConsent } from '../../src-main/node/sandbox/wasm/sandboxConsent';

interface Held {
  grant: ConsentGrant;
  controller: AbortController;
}

/**
 * A small real consent policy for the sandbox's tests: a fixed set of grants, matched by agent, session,
 * capability and scope ("**" or "dir/**" for paths, "host" or "*.domain" for network, null for anything), each
 * with the AbortSignal that a revoke fires; prompts are answered from a preset table (deny when absent, as with no
 * UI attached). Like the engine, a use after a revoke is told capability_revoked.
 */
export class FixedGrants implements SandboxConsent {
  private held: Held[] = [];
  private next = 1;
  readonly answers = new Map<string, Decision>();
  readonly asked: ConsentAsk[] = [];

  grant(agentId: string, sessionId: string, capability: string, scope: string | null = null): ConsentGrant {
    const grant: ConsentGrant = {
      id: `grant_${this.next++}`,
      agentId,
      sessionId,
      capability,
      scope,
      action: null,
      once: false,
      expiresAt: Date.now() + 600_000,
      grantedAt: Date.now(),
      grantedBy: 'test',
      status: 'live',
      endedAt: null,
      endedBy: null,
    };
    this.held.push({ grant, controller: new AbortController() });
    return grant;
  }

  revoke(grantId: string): void {
    const found = this.held.find((h) => h.grant.id === grantId && h.grant.status === 'live');
    if (!found) return;
    found.grant = { ...found.grant, status: 'revoked', endedAt: Date.now(), endedBy: 'test' };
    found.controller.abort(new CapabilityRevokedError(found.grant.capability, grantId, 'revoked'));
  }

  private static matches(scope: string | null, target: string | undefined): boolean {
    if (scope === null) return true;
    if (target === undefined) return false;
    if (scope === '**') return true;
    if (scope.endsWith('/**')) return target === scope.slice(0, -3) || target.startsWith(scope.slice(0, -2));
    if (scope.startsWith('*.')) return target.endsWith(scope.slice(1));
    return scope === target;
  }

  private covering(use: CapabilityUse): Held[] {
    return this.held.filter((h) => h.grant.agentId === use.agentId && h.grant.sessionId === use.sessionId && h.grant.capability === use.capability && FixedGrants.matches(h.grant.scope, use.target));
  }

  authorize(use: CapabilityUse): { grantId: string; signal: AbortSignal } {
    const covering = this.covering(use);
    const live = covering.find((h) => h.grant.status === 'live');
    if (live) return { grantId: live.grant.id, signal: live.controller.signal };
    if (covering.length > 0) throw new CapabilityRevokedError(use.capability, covering[0].grant.id, 'revoked');
    throw new CapabilityDeniedError(use.capability, use.target ?? null, 'no live grant covers it');
  }

  async ask(ask: ConsentAsk): Promise<ConsentOutcome> {
    this.asked.push(ask);
    if ((this.answers.get(ask.capability) ?? 'deny') === 'deny') return { decision: 'deny', reason: 'the test answered Deny' };
    return { decision: 'allow', reason: 'the test answered Allow', grant: this.grant(ask.agentId, ask.sessionId, ask.capability, ask.target ?? null) };
  }

  list(sessionId?: string): ConsentGrant[] {
    return this.held.map((h) => h.grant).filter((g) => g.status === 'live' && (sessionId === undefined || g.sessionId === sessionId));
  }
}
