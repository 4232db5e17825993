import type { Migration } from '../migration';

export const v07AgentKvAndScratchpad: Migration = {
  version: 7,
  name: 'agent KV (the memory capability) and the session scratchpad',
  // See src-main/node/sandbox/wasm/agentStore.ts: the omni.kv_* and omni.scratch_* host functions.
  sql: `
    -- Per-agent memory: only the agent that wrote a key reads it back.
    CREATE TABLE agent_kv (
      agent_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (agent_id, key)
    ) WITHOUT ROWID;

    -- Shared by the agents of one session, for their collaboration.
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
