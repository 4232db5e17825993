import type { Database } from '../store/database';
import { isKnownCapability } from './capability';
import { compileScope, type ScopeMatcher } from './scope';

/**
 * The user's standing rules, which beat grants: "deny" refuses the capability whatever was granted, "ask" makes
 * every use of it a per-action question (like a sensitive action). Scopes match case-insensitively (see scope.ts).
 */
export interface ConsentRule {
  id: string;
  effect: 'deny' | 'ask';
  /** null: every agent. */
  agentId: string | null;
  capability: string;
  /** null: any target. */
  scope: string | null;
  createdAt: number;
  createdBy: string;
}

export interface CompiledRule extends ConsentRule {
  matches: ScopeMatcher;
}

interface Row {
  id: string;
  effect: 'deny' | 'ask';
  agent_id: string | null;
  capability: string;
  scope: string | null;
  created_at: number;
  created_by: string;
}

export class InvalidRuleError extends Error {
  readonly code = 'bad_request';
  constructor(reason: string) {
    super(`consent rule refused: ${reason}`);
    this.name = 'InvalidRuleError';
  }
}

/** Validates a rule and builds its matcher; a rule with a network scope of null covers every host. */
export function compileRule(rule: ConsentRule): CompiledRule {
  if (rule.effect !== 'deny' && rule.effect !== 'ask') throw new InvalidRuleError(`effect must be "deny" or "ask", not "${String(rule.effect)}"`);
  if (!isKnownCapability(rule.capability)) throw new InvalidRuleError(`unknown capability "${rule.capability}"`);
  if (rule.scope === null) return { ...rule, matches: () => true };
  const scope = compileScope(rule.capability, rule.scope, true);
  if (!scope.ok) throw new InvalidRuleError(scope.reason);
  return { ...rule, scope: scope.source, matches: scope.matches };
}

/** Rules in SQLite (table consent_rules, migration 6). */
export class RuleStore {
  constructor(private readonly db: Database) {}

  all(): ConsentRule[] {
    return this.db
      .prepare<[], Row>('SELECT * FROM consent_rules ORDER BY created_at, id')
      .all()
      .map((row) => ({
        id: row.id,
        effect: row.effect,
        agentId: row.agent_id,
        capability: row.capability,
        scope: row.scope,
        createdAt: row.created_at,
        createdBy: row.created_by,
      }));
  }

  insert(rule: ConsentRule): void {
    this.db
      .prepare('INSERT INTO consent_rules (id, effect, agent_id, capability, scope, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(rule.id, rule.effect, rule.agentId, rule.capability, rule.scope, rule.createdAt, rule.createdBy);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM consent_rules WHERE id = ?').run(id).changes === 1;
  }
}
