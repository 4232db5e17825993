import type { Migration } from '../migration';

export const v10HostProtocolCheckpoints: Migration = {
  version: 10,
  name: 'host protocol: checkpoints and their resume journal, context.md hashes',
  // See src-main/node/goal/metaShell. A checkpoint moves pending → answered → resuming → resumed and never back; each move is
  // a conditional UPDATE in checkpointStore.ts, so of concurrent callers (windows, processes, a restarted host) one
  // wins. The answer, once stored, never changes; the outcome of the resume is stored so every caller gets it.
  sql: `
    CREATE TABLE host_checkpoints (
      session_id TEXT NOT NULL,
      resume_id TEXT NOT NULL,
      agent_name TEXT,
      reason TEXT NOT NULL CHECK (reason IN ('decision_required', 'human_action')),
      message TEXT NOT NULL,
      -- JSON array of strings.
      options TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'resuming', 'resumed')),
      -- JSON {"value": ...}: the user's answer (resume_data.user_input).
      answer TEXT,
      answered_by TEXT,
      answered_at INTEGER,
      -- Who runs (or last ran) the resume: a take-over needs the token of a claimant known to be gone.
      claim_token TEXT,
      claim_pid INTEGER,
      claim_host TEXT,
      claim_pid_start TEXT,
      claimed_at INTEGER,
      attempts INTEGER NOT NULL DEFAULT 0,
      -- JSON {"ok": true, "value": ...} or {"ok": false, "error": "..."}.
      outcome TEXT,
      resumed_at INTEGER,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, resume_id),
      CHECK ((status = 'pending') = (answer IS NULL)),
      CHECK ((status = 'resumed') = (outcome IS NOT NULL)),
      CHECK (status IN ('pending', 'answered') OR claim_token IS NOT NULL)
    ) WITHOUT ROWID;
    CREATE INDEX host_checkpoints_open ON host_checkpoints (status, created_at) WHERE status <> 'resumed';

    CREATE TRIGGER host_checkpoints_forward_only BEFORE UPDATE OF status ON host_checkpoints
      WHEN NOT ((OLD.status = 'pending' AND NEW.status = 'answered')
             OR (OLD.status = 'answered' AND NEW.status = 'resuming')
             OR (OLD.status = 'resuming' AND NEW.status IN ('resuming', 'resumed')))
      BEGIN SELECT RAISE(ABORT, 'host_checkpoints: a checkpoint moves only pending -> answered -> resuming -> resumed'); END;
    CREATE TRIGGER host_checkpoints_answer_once BEFORE UPDATE OF answer ON host_checkpoints
      WHEN OLD.answer IS NOT NULL AND NEW.answer IS NOT OLD.answer
      BEGIN SELECT RAISE(ABORT, 'host_checkpoints: an answer, once stored, never changes'); END;
    CREATE TRIGGER host_checkpoints_outcome_once BEFORE UPDATE OF outcome ON host_checkpoints
      WHEN OLD.outcome IS NOT NULL AND NEW.outcome IS NOT OLD.outcome
      BEGIN SELECT RAISE(ABORT, 'host_checkpoints: a resume outcome, once stored, never changes'); END;

    -- The last SHA-256 of each workspace's .meta/context.md the host recorded in the ledger (NULL: no file).
    CREATE TABLE meta_context_hashes (
      workspace TEXT PRIMARY KEY,
      sha256 TEXT,
      bytes INTEGER,
      recorded_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};
