import type { Migration } from '../migration';

export const v15OAuthClients: Migration = {
  version: 15,
  name: 'vault: OAuth clients set up in the Connections view',
  // One row per OAuth client the user set up in the app (vault/oauthClients.ts). `settings` is JSON: issuer or
  // endpoints, client id, scopes, API domains, redirect port, flows; never the client secret, which lives in the OS
  // keychain (account "oauth-client/<id>"), and `has_secret` only says whether one is there.
  sql: `
    CREATE TABLE oauth_clients (
      id          TEXT PRIMARY KEY,
      name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
      settings    TEXT NOT NULL,
      has_secret  INTEGER NOT NULL DEFAULT 0,
      created_at  INTEGER NOT NULL,
      updated_at  INTEGER NOT NULL
    );
  `,
};
