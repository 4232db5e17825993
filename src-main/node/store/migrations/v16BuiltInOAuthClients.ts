import type { Migration } from '../migration';

export const v16BuiltInOAuthClients: Migration = {
  version: 16,
  name: 'vault: client ids of the built-in OAuth providers set in the Connections view',
  // One row per built-in OAuth provider (GitHub, Google) whose client id the user set in the app
  // (vault/builtInClients.ts). Never the client secret: that lives in the OS keychain (account
  // "oauth-client/builtin:<provider>"), and `has_secret` only says whether one is there.
  sql: `
    CREATE TABLE builtin_oauth_clients (
      provider    TEXT PRIMARY KEY,
      client_id   TEXT NOT NULL,
      has_secret  INTEGER NOT NULL DEFAULT 0,
      updated_at  INTEGER NOT NULL
    );
  `,
};
