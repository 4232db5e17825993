import type { Migration } from '../migration';

export const v11HarnessSessions: Migration = {
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
};
