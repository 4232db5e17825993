import type { Migration } from '../migration';

export const v06ConsentGrantsAndRules: Migration = {
  version: 6,
  name: "consent: grants and the user's deny/ask rules",
  // See src-main/node/consent. A grant row is never deleted: it ends (used, revoked, expired) so a later use can be
  // told "revoked" rather than just "denied", and the ledger entries that created and ended it keep pointing at it.
  // Every grant is time-bounded: "allow once" grants too get a short window in which to be used.
  sql: `
    CREATE TABLE consent_grants (
      id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      capability TEXT NOT NULL,
      -- A path pattern (files.*) or a domain pattern (network); NULL for capabilities without one.
      scope TEXT,
      -- Set for a grant that covers exactly one sensitive action (a POST to one URL, one command line).
      action TEXT,
      once INTEGER NOT NULL CHECK (once IN (0, 1)),
      expires_at INTEGER NOT NULL,
      granted_at INTEGER NOT NULL,
      granted_by TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('live', 'used', 'revoked', 'expired')),
      ended_at INTEGER,
      ended_by TEXT,
      -- A used once-grant has not ended: the work it allowed may still be in flight, and can still be revoked.
      CHECK ((status IN ('live', 'used')) = (ended_at IS NULL))
    );
    CREATE INDEX consent_grants_by_use ON consent_grants (session_id, agent_id, capability, status);
    CREATE INDEX consent_grants_live ON consent_grants (status) WHERE status IN ('live', 'used');

    CREATE TABLE consent_rules (
      id TEXT PRIMARY KEY,
      effect TEXT NOT NULL CHECK (effect IN ('deny', 'ask')),
      -- NULL: every agent.
      agent_id TEXT,
      capability TEXT NOT NULL,
      -- NULL: any target.
      scope TEXT,
      created_at INTEGER NOT NULL,
      created_by TEXT NOT NULL
    );
  `,
};
