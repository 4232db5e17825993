import type { Database } from '../../store/database';
import { agentKey } from './agentCatalog';

/** What the ledger last recorded about an agent name. */
export interface RegistrationRecord {
  manifestSha256: string;
  source: string;
  folder: string;
}

export const AGENT_REGISTER = 'agent.register';

/**
 * The newest `agent.register` entry per agent name, read from the ledger table (the (type, seq) index keeps this
 * cheap however long the ledger is). Call after `ledger.flush()` so queued entries are counted.
 */
export function lastRegistrations(db: Database): Map<string, RegistrationRecord> {
  const rows = db.prepare<[string], { payload: string }>('SELECT payload FROM audit_ledger WHERE type = ? ORDER BY seq').all(AGENT_REGISTER);
  const records = new Map<string, RegistrationRecord>();
  for (const row of rows) {
    const payload = JSON.parse(row.payload) as Partial<Record<string, unknown>>;
    if (typeof payload.name !== 'string' || typeof payload.manifestSha256 !== 'string') continue;
    records.set(agentKey(payload.name), { manifestSha256: payload.manifestSha256, source: String(payload.source), folder: String(payload.folder) });
  }
  return records;
}
