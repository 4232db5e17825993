import type { ConsentGrant } from '../../../src-preload/contract';
import type { Database } from '../store/database';

interface Row {
  id: string;
  agent_id: string;
  session_id: string;
  capability: string;
  scope: string | null;
  action: string | null;
  once: number;
  expires_at: number;
  granted_at: number;
  granted_by: string;
  status: ConsentGrant['status'];
  ended_at: number | null;
  ended_by: string | null;
}

const toGrant = (row: Row): ConsentGrant => ({
  id: row.id,
  agentId: row.agent_id,
  sessionId: row.session_id,
  capability: row.capability,
  scope: row.scope,
  action: row.action,
  once: row.once === 1,
  expiresAt: row.expires_at,
  grantedAt: row.granted_at,
  grantedBy: row.granted_by,
  status: row.status,
  endedAt: row.ended_at,
  endedBy: row.ended_by,
});

/** Grants in SQLite (table consent_grants, migration 6), so they outlive a restart. Rows end; they are never deleted. */
export class GrantStore {
  private readonly insertRow;
  private readonly setUsed;
  private readonly setEnded;
  private readonly selectOne;
  private readonly selectActive;
  private readonly selectEnded;

  constructor(db: Database) {
    this.insertRow = db.prepare(
      `INSERT INTO consent_grants (id, agent_id, session_id, capability, scope, action, once, expires_at, granted_at, granted_by, status)
       VALUES (@id, @agentId, @sessionId, @capability, @scope, @action, @once, @expiresAt, @grantedAt, @grantedBy, 'live')`,
    );
    this.setUsed = db.prepare("UPDATE consent_grants SET status = 'used' WHERE id = ? AND status = 'live'");
    this.setEnded = db.prepare("UPDATE consent_grants SET status = ?, ended_at = ?, ended_by = ? WHERE id = ? AND status IN ('live', 'used')");
    this.selectOne = db.prepare<[string], Row>('SELECT * FROM consent_grants WHERE id = ?');
    this.selectActive = db.prepare<[number], Row>(
      "SELECT * FROM consent_grants WHERE status = 'live' OR (status = 'used' AND expires_at > ?) ORDER BY granted_at, id",
    );
    this.selectEnded = db.prepare<[string, string, string], Row>(
      "SELECT * FROM consent_grants WHERE session_id = ? AND agent_id = ? AND capability = ? AND status IN ('revoked', 'expired') ORDER BY ended_at DESC LIMIT 100",
    );
  }

  insert(grant: ConsentGrant): void {
    this.insertRow.run({ ...grant, once: grant.once ? 1 : 0 });
  }

  markUsed(id: string): void {
    this.setUsed.run(id);
  }

  /** Returns false when the grant had already ended. */
  end(id: string, status: 'revoked' | 'expired', at: number, by: string): boolean {
    return this.setEnded.run(status, at, by, id).changes === 1;
  }

  get(id: string): ConsentGrant | undefined {
    const row = this.selectOne.get(id);
    return row ? toGrant(row) : undefined;
  }

  /**
   * Grants not yet ended: live ones (expired or not: the caller ends those past their time) and used once-grants
   * still inside their window.
   */
  active(now: number): ConsentGrant[] {
    return this.selectActive.all(now).map(toGrant);
  }

  /** Recently ended grants of one agent for one capability in one session, newest first. */
  ended(sessionId: string, agentId: string, capability: string): ConsentGrant[] {
    return this.selectEnded.all(sessionId, agentId, capability).map(toGrant);
  }
}
