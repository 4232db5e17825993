import { Emitter } from '../../src-preload/rpc';
import type { ConsentDecision, ConsentGrant, ConsentUse, SandboxConsent } from '../../src-main/node/sandbox/wasm/sandboxConsent';

/**
 * A small real consent policy for the sandbox's tests: a fixed set of grants, matched by agent, session,
 * capability and scope ("**" or "dir/**" for paths, "host" or "*.domain" for network, null for anything), that
 * can be revoked; prompts are answered from a preset table (deny when absent, as with no UI attached).
 */
export class FixedGrants implements SandboxConsent {
  private grants: ConsentGrant[] = [];
  private next = 1;
  private readonly revoked = new Emitter<ConsentGrant>();
  readonly onDidRevoke = this.revoked.event;
  readonly answers = new Map<string, ConsentDecision>();
  readonly asked: (ConsentUse & { reason: string })[] = [];

  grant(agentId: string, sessionId: string, capability: string, scope: string | null = null): ConsentGrant {
    const grant: ConsentGrant = { id: `grant_${this.next++}`, agentId, sessionId, capability, scope, expiresAt: null, once: false };
    this.grants.push(grant);
    return grant;
  }

  revoke(grantId: string): void {
    const grant = this.grants.find((g) => g.id === grantId);
    if (!grant) return;
    this.grants = this.grants.filter((g) => g !== grant);
    this.revoked.fire(grant);
  }

  private static matches(scope: string | null, target: string | undefined): boolean {
    if (scope === null) return true;
    if (target === undefined) return false;
    if (scope === '**') return true;
    if (scope.endsWith('/**')) return target === scope.slice(0, -3) || target.startsWith(scope.slice(0, -2));
    if (scope.startsWith('*.')) return target.endsWith(scope.slice(1));
    return scope === target;
  }

  check(use: ConsentUse): { decision: ConsentDecision; grantId?: string; reason: string } {
    const grant = this.grants.find(
      (g) => g.agentId === use.agentId && g.sessionId === use.sessionId && g.capability === use.capability && FixedGrants.matches(g.scope, use.target),
    );
    return grant ? { decision: 'allow', grantId: grant.id, reason: `granted (${grant.id})` } : { decision: 'deny', reason: 'no live grant covers it' };
  }

  async request(ask: ConsentUse & { reason: string; durationS: number }): Promise<ConsentDecision> {
    this.asked.push(ask);
    const answer = this.answers.get(ask.capability) ?? 'deny';
    if (answer === 'allow') this.grant(ask.agentId, ask.sessionId, ask.capability, ask.target ?? null);
    return answer;
  }

  list(sessionId?: string): ConsentGrant[] {
    return this.grants.filter((g) => sessionId === undefined || g.sessionId === sessionId);
  }
}
