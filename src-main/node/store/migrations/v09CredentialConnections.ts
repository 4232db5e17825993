import type { Migration } from '../migration';

export const v09CredentialConnections: Migration = {
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
};
