import type BetterSqlite3 from 'better-sqlite3';
import { chainLegacyLedger } from '../ledger/legacyLedgerMigration';

/**
 * Numbered schema migrations. Each runs once, in order, inside the single transaction that applies a batch,
 * and `PRAGMA user_version` records the last one applied. Never edit a released step: add a new one.
 * A step is SQL, optionally followed by `migrate` for data work SQL cannot do (hashing, say).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly migrate?: (db: BetterSqlite3.Database) => void;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and the first append-only ledger',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        workspace TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_by_workspace ON sessions (workspace);

      CREATE TABLE ledger_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        ts INTEGER NOT NULL,
        type TEXT NOT NULL,
        actor TEXT NOT NULL,
        session_id TEXT,
        payload TEXT NOT NULL
      );
      CREATE INDEX ledger_events_by_session ON ledger_events (session_id, seq);

      -- The ledger is append-only: the database itself refuses to change or remove an entry.
      CREATE TRIGGER ledger_events_no_update BEFORE UPDATE ON ledger_events
        BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;
      CREATE TRIGGER ledger_events_no_delete BEFORE DELETE ON ledger_events
        BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: DELETE refused'); END;
    `,
  },
  {
    version: 2,
    name: 'tamper-evident audit ledger (hash chain, payload commitments)',
    sql: `
      CREATE TABLE audit_ledger (
        seq INTEGER PRIMARY KEY,
        ts INTEGER NOT NULL,
        type TEXT NOT NULL,
        actor TEXT NOT NULL,
        session_id TEXT,
        payload_commit BLOB NOT NULL CHECK (length(payload_commit) = 32),
        prev_hash BLOB NOT NULL CHECK (length(prev_hash) = 32),
        entry_hash BLOB NOT NULL CHECK (length(entry_hash) = 32),
        -- Kept beside the entry so it can be checked against its commitment (and dropped from a redacted export).
        payload TEXT NOT NULL,
        salt BLOB NOT NULL CHECK (length(salt) = 16)
      );
      CREATE INDEX audit_ledger_by_session ON audit_ledger (session_id, seq);
      CREATE INDEX audit_ledger_by_type ON audit_ledger (type, seq);

      CREATE TRIGGER audit_ledger_gapless BEFORE INSERT ON audit_ledger
        WHEN NEW.seq IS NOT coalesce((SELECT max(seq) FROM audit_ledger), 0) + 1
        BEGIN SELECT RAISE(ABORT, 'audit_ledger is gapless: seq must be the last seq + 1'); END;
      CREATE TRIGGER audit_ledger_no_update BEFORE UPDATE ON audit_ledger
        BEGIN SELECT RAISE(ABORT, 'audit_ledger is append-only: UPDATE refused'); END;
      CREATE TRIGGER audit_ledger_no_delete BEFORE DELETE ON audit_ledger
        BEGIN SELECT RAISE(ABORT, 'audit_ledger is append-only: DELETE refused'); END;
    `,
    // Entries of the first (unchained) ledger are chained in their order, then its table goes.
    migrate: chainLegacyLedger,
  },
  {
    version: 3,
    name: 'signed ledger checkpoints',
    sql: `
      -- One row per signed checkpoint (see ledger/checkpoint.ts): the ledger's key vouches for (size, head_hash),
      -- chained through prev_signature. Append-only like the ledger, and never ahead of it.
      CREATE TABLE ledger_checkpoints (
        size INTEGER PRIMARY KEY CHECK (size > 0),
        ts INTEGER NOT NULL,
        head_hash BLOB NOT NULL CHECK (length(head_hash) = 32),
        prev_signature BLOB CHECK (prev_signature IS NULL OR length(prev_signature) = 64),
        signature BLOB NOT NULL CHECK (length(signature) = 64),
        public_key BLOB NOT NULL
      );
      CREATE TRIGGER ledger_checkpoints_in_order BEFORE INSERT ON ledger_checkpoints
        WHEN NEW.size <= coalesce((SELECT max(size) FROM ledger_checkpoints), 0)
          OR NEW.size > coalesce((SELECT max(seq) FROM audit_ledger), 0)
        BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints: a checkpoint must cover more entries than the last one, and no more than exist'); END;
      CREATE TRIGGER ledger_checkpoints_no_update BEFORE UPDATE ON ledger_checkpoints
        BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: UPDATE refused'); END;
      CREATE TRIGGER ledger_checkpoints_no_delete BEFORE DELETE ON ledger_checkpoints
        BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: DELETE refused'); END;
    `,
  },
  {
    version: 4,
    name: 'event log (what streams, per session, replayable)',
    sql: `
      -- See src-main/node/eventlog/eventLog.ts. Not the audit ledger: retention removes from it, so no triggers.
      CREATE TABLE event_log (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        ts INTEGER NOT NULL,
        kind TEXT NOT NULL,
        subject TEXT,
        -- A state change's JSON, or NULL for output.
        payload TEXT,
        -- Output text as UTF-8, and its length in UTF-16 code units (what the terminal scrollback counts).
        data BLOB,
        data_chars INTEGER,
        PRIMARY KEY (session_id, seq),
        CHECK ((payload IS NULL) <> (data IS NULL))
      ) WITHOUT ROWID;
      -- State events by kind (terminals opened and never closed, say); output rows stay out of this index.
      CREATE INDEX event_log_state_by_kind ON event_log (kind, subject) WHERE data IS NULL;

      -- Sessions from before the event log start theirs with their current record.
      INSERT INTO event_log (session_id, seq, ts, kind, subject, payload)
        SELECT id, 1, updated_at, 'session.created', NULL,
               json_object('id', id, 'name', name, 'workspace', workspace, 'status', status,
                           'createdAt', created_at, 'updatedAt', updated_at)
        FROM sessions;
    `,
  },
  {
    version: 5,
    name: 'ledger view: filter by actor',
    // The view filters and lists actors like it does sessions and types: an (actor, seq) index serves both the
    // filter inside a seq window and the distinct-actor menu (one index seek per actor instead of a full scan).
    // Time and text filters scan seq windows instead (see ledger/ledgerQuery.ts for the measurements).
    sql: `
      CREATE INDEX audit_ledger_by_actor ON audit_ledger (actor, seq);
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 8,
    name: 'shell runs: exec runs, their items, the watcher backlog',
    // See src-main/node/exec. A run is a row of exec_runs (ord is the queue order, kept when a run is recovered);
    // its output and events are exec_run_items, numbered gaplessly from 1 per run and stored by (run_id, seq) so a
    // poll is one range read. The backlog holds watcher matches until the session's agent takes them.
    sql: `
      CREATE TABLE exec_runs (
        ord INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        -- JSON array of strings.
        argv TEXT NOT NULL,
        cwd TEXT NOT NULL,
        pty INTEGER NOT NULL CHECK (pty IN (0, 1)),
        background INTEGER NOT NULL CHECK (background IN (0, 1)),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'exited', 'killed', 'timed_out', 'failed')),
        exit_code INTEGER,
        signal TEXT,
        reason TEXT,
        timeout_secs REAL,
        max_output_bytes INTEGER,
        -- JSON array of watchers, as requested.
        watch TEXT NOT NULL,
        output_bytes INTEGER NOT NULL DEFAULT 0,
        truncated INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
        -- The attempt running or last run (0 before the first); recovery re-queues a run until max_attempts.
        attempt INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        -- The process group of the current attempt, so a later host can make sure it is gone before a re-run.
        pgid INTEGER,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        last_seq INTEGER NOT NULL DEFAULT 0,
        -- JSON array: what the sandbox enforced for the last attempt.
        sandbox TEXT NOT NULL DEFAULT '[]'
      );
      -- The worker's claim: the oldest queued run of a session.
      CREATE INDEX exec_runs_queued ON exec_runs (session_id, ord) WHERE status = 'queued';
      -- The Runs panel: a session's runs in order.
      CREATE INDEX exec_runs_by_session ON exec_runs (session_id, ord);
      -- Recovery at start: runs a previous host left running.
      CREATE INDEX exec_runs_running ON exec_runs (status) WHERE status = 'running';

      CREATE TABLE exec_run_items (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        ts INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('stdout', 'stderr', 'output', 'input', 'event')),
        data TEXT NOT NULL,
        -- JSON object for event items, else NULL.
        detail TEXT,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE exec_backlog (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        event TEXT NOT NULL,
        text TEXT NOT NULL,
        ts INTEGER NOT NULL,
        delivered INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0, 1)),
        -- Set on the one row per session that counts messages dropped while the backlog was full.
        dropped INTEGER
      );
      CREATE INDEX exec_backlog_by_session ON exec_backlog (session_id, delivered, id);
    `,
  },
  {
    version: 9,
    name: 'credential connections (metadata only; the credentials live in the OS keychain)',
    // See src-main/node/vault. One row per connection to a provider: what the Connections view shows. Never token
    // material: access tokens, refresh tokens and API keys are in the OS keychain under the connection's id.
    // A disconnected row is kept (status 'disconnected') so the ledger entries about it keep pointing at something.
    sql: `
      CREATE TABLE vault_connections (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('api_key', 'oauth')),
        label TEXT NOT NULL,
        -- JSON array of the scopes granted (an API key holds ["api"]).
        scopes TEXT NOT NULL,
        -- OpenAI-compatible endpoints: where the key goes. NULL for providers with a fixed API.
        base_url TEXT,
        status TEXT NOT NULL CHECK (status IN ('connected', 'failed', 'revoked', 'disconnected')),
        -- Why a connection failed or was revoked, in words the user can act on.
        status_reason TEXT,
        -- When the access token runs out (ms since the epoch); NULL when it does not say (API keys).
        expires_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        refreshed_at INTEGER
      );
      CREATE INDEX vault_connections_by_provider ON vault_connections (provider, status);
    `,
  },
  {
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
  },
  {
    version: 11,
    name: 'harness sessions: Claude Code / Codex CLI sessions with their provider-typed continuation key',
    // See src-main/node/harness/sessions. One row per CLI conversation the user started in a workspace session: what to
    // relaunch after a restart (frontend, modes, the continuation key once observed, the cwd it began in). Never a
    // secret: the CLI's credentials come from the vault's proxy at each launch and are not stored here.
    sql: `
      CREATE TABLE harness_sessions (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id),
        frontend TEXT NOT NULL CHECK (frontend IN ('claude-code', 'codex-cli')),
        provider TEXT NOT NULL CHECK (provider IN ('anthropic', 'openai')),
        interaction_mode TEXT NOT NULL CHECK (interaction_mode IN ('interactive', 'headless')),
        io_mode TEXT NOT NULL CHECK (io_mode IN ('pty', 'pipes')),
        model TEXT,
        -- The provider-native conversation id (a UUID); NULL until observed (Codex reports it in its first event).
        continuation_key TEXT,
        -- The cwd the conversation began in: Claude Code resumes only from there.
        origin_cwd TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('starting', 'running', 'exited', 'stopped', 'failed')),
        exit_code INTEGER,
        -- Why it is not running, in words the user can act on (a host restart, a failed launch).
        status_reason TEXT,
        -- The last launch's copy/paste form (credential variables redacted by the harness module).
        display_command TEXT,
        -- The PTY's terminal id while an interactive launch is live.
        terminal_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        launched_at INTEGER,
        CHECK (continuation_key IS NULL OR length(continuation_key) = 36)
      );
      CREATE INDEX harness_sessions_by_session ON harness_sessions (session_id, created_at);
    `,
  },
  {
    version: 12,
    name: "exec runs: the 'interrupted' status",
    // An agent's run the host stopped under is ended `interrupted` at the next start, not run again (its agent run
    // and grants ended with that host; src-main/node/exec/runRecovery.ts). SQLite cannot change a CHECK in place:
    // the table is rebuilt as it was, rows (and their ord, the queue order) copied, its indexes made again.
    sql: `
      CREATE TABLE exec_runs_v12 (
        ord INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        -- JSON array of strings.
        argv TEXT NOT NULL,
        cwd TEXT NOT NULL,
        pty INTEGER NOT NULL CHECK (pty IN (0, 1)),
        background INTEGER NOT NULL CHECK (background IN (0, 1)),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'exited', 'killed', 'timed_out', 'failed', 'interrupted')),
        exit_code INTEGER,
        signal TEXT,
        reason TEXT,
        timeout_secs REAL,
        max_output_bytes INTEGER,
        -- JSON array of watchers, as requested.
        watch TEXT NOT NULL,
        output_bytes INTEGER NOT NULL DEFAULT 0,
        truncated INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
        -- The attempt running or last run (0 before the first); recovery re-queues a run until max_attempts.
        attempt INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        -- The process group of the current attempt, so a later host can make sure it is gone before a re-run.
        pgid INTEGER,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        last_seq INTEGER NOT NULL DEFAULT 0,
        -- JSON array: what the sandbox enforced for the last attempt.
        sandbox TEXT NOT NULL DEFAULT '[]'
      );
      INSERT INTO exec_runs_v12 SELECT * FROM exec_runs;
      DROP TABLE exec_runs;
      ALTER TABLE exec_runs_v12 RENAME TO exec_runs;
      CREATE INDEX exec_runs_queued ON exec_runs (session_id, ord) WHERE status = 'queued';
      CREATE INDEX exec_runs_by_session ON exec_runs (session_id, ord);
      CREATE INDEX exec_runs_running ON exec_runs (status) WHERE status = 'running';
    `,
  },
  {
    version: 13,
    name: 'changes: workspace snapshots, agent turns and the verdicts of their review',
    // See src-main/node/changes and docs/changes.md. A snapshot is a tree in the workspace's shadow git store (under
    // the app home); `tree` is NULL when it could not be taken (git missing, the store broken), and `error` says why,
    // so the turn is still recorded and its review explains itself. Titles are scrubbed of secrets before they land.
    // A verdict row with hunk -1 is the file's verdict: the user's for a file without hunks (binary), else derived
    // from its hunks' rows each time one changes, so listing a turn's files never diffs them.
    sql: `
      CREATE TABLE change_snapshots (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id),
        -- The turn it was taken before or after; NULL for the session's first ('start').
        turn_id TEXT,
        moment TEXT NOT NULL CHECK (moment IN ('start', 'before', 'after')),
        tree TEXT,
        error TEXT,
        taken_at INTEGER NOT NULL,
        files_changed INTEGER NOT NULL DEFAULT 0,
        -- JSON array of SkippedFile.
        skipped TEXT NOT NULL DEFAULT '[]',
        CHECK ((tree IS NULL) = (error IS NOT NULL))
      );
      CREATE INDEX change_snapshots_by_session ON change_snapshots (session_id, taken_at);

      CREATE TABLE change_turns (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id),
        source_kind TEXT NOT NULL CHECK (source_kind IN ('conversation', 'agent_run', 'goal_task', 'shell_run', 'harness_run', 'restore')),
        source_id TEXT NOT NULL,
        source_seq INTEGER,
        agent TEXT NOT NULL,
        title TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        before_snapshot TEXT NOT NULL REFERENCES change_snapshots (id),
        after_snapshot TEXT REFERENCES change_snapshots (id),
        files_changed INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX change_turns_by_session ON change_turns (session_id, started_at);
      CREATE INDEX change_turns_by_source ON change_turns (source_kind, source_id);

      CREATE TABLE change_verdicts (
        turn_id TEXT NOT NULL REFERENCES change_turns (id),
        path TEXT NOT NULL,
        hunk INTEGER NOT NULL CHECK (hunk >= -1),
        verdict TEXT NOT NULL CHECK (verdict IN ('pending', 'accepted', 'rejected', 'mixed')),
        at INTEGER NOT NULL,
        PRIMARY KEY (turn_id, path, hunk)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 14,
    name: 'sessions: the worktree a session works in',
    // JSON {repo, branch, base, path}: the checkout the session was created on, its branch "omni/…", the branch it
    // started from, and the worktree folder under the app home. NULL: the session works in the folder itself.
    sql: `ALTER TABLE sessions ADD COLUMN worktree TEXT;`,
  },
];
