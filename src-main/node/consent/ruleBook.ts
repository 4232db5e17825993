import type { Ledger } from '../ledger/ledger';
import type { Clock } from './clock';
import { newConsentId } from './consentIds';
import { compileRule, RuleStore, type CompiledRule, type ConsentRule } from './consentRules';
import type { Database } from '../store/database';
import type { PreparedUse } from './preparedUse';

/** The user's standing rules, compiled in memory and kept in SQLite; each change is one ledger entry. */
export class RuleBook {
  private readonly store: RuleStore;
  private rules: CompiledRule[];

  constructor(
    db: Database,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
  ) {
    this.store = new RuleStore(db);
    this.rules = this.store.all().map(compileRule);
  }

  add(rule: { effect: 'deny' | 'ask'; agentId?: string | null; capability: string; scope?: string | null }, actor: string): ConsentRule {
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
      this.store.insert(stored);
      this.ledger.append({ type: 'consent.rule', actor, payload: { ruleId: stored.id, effect: stored.effect, agentId: stored.agentId, capability: stored.capability, scope: stored.scope } });
    });
    this.rules.push(compiled);
    return stored;
  }

  remove(ruleId: string, actor: string): boolean {
    const removed = this.ledger.transact(() => {
      const done = this.store.delete(ruleId);
      if (done) this.ledger.append({ type: 'consent.rule', actor, payload: { ruleId, removed: true } });
      return done;
    });
    if (removed) this.rules = this.rules.filter((r) => r.id !== ruleId);
    return removed;
  }

  list(): ConsentRule[] {
    return this.rules.map(({ matches: _matches, ...rule }) => rule);
  }

  /** The rules that apply to this use (its agent or every agent, its capability, a scope covering its target). */
  matching(use: PreparedUse): CompiledRule[] {
    return this.rules.filter((r) => (r.agentId === null || r.agentId === use.agentId) && r.capability === use.capability && r.matches(use.target));
  }

  /** A sensitive action, or one an "ask" rule covers, is granted only for exactly that action. */
  needsExactAction(use: PreparedUse): boolean {
    return use.sensitive || this.matching(use).some((r) => r.effect === 'ask');
  }
}
