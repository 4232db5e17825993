import type { Migration } from '../../store/migrations';

/**
 * Schema step 7: what agents keep between runs. Listed in store/migrations.ts; kept here beside the code that uses
 * the tables.
 */
export const agentStoreMigration: Migration = {
  version: 7,
  name: 'agent KV (memory capability) and the session scratchpad',
  sql: `
    -- Per-agent memory: only the agent that wrote a key reads it back (agent_id is the manifest's name).
    CREATE TABLE agent_kv (
      agent_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (agent_id, key)
    ) WITHOUT ROWID;

    -- Shared by the agents of one session, for collaboration; goes with the session.
    CREATE TABLE session_scratchpad (
      session_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      updated_by TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, key)
    ) WITHOUT ROWID;
  `,
};
