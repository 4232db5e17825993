import type { Database } from '../store/database';
import { SecretScrubber } from './secretScrubber';

export type ConnectionStatus = 'connected' | 'failed' | 'revoked' | 'disconnected';

/** What the Connections view shows about one connection. Never token material: that is in the keychain only. */
export interface Connection {
  id: string;
  provider: string;
  kind: 'api_key' | 'oauth';
  label: string;
  scopes: string[];
  /** OpenAI-compatible endpoints: where the key goes. */
  baseUrl: string | null;
  status: ConnectionStatus;
  /** Why it failed or was revoked, in words the user can act on. */
  statusReason: string | null;
  /** When the access token runs out (ms since the epoch); null when unknown or never (API keys). */
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  refreshedAt: number | null;
}

interface Row {
  id: string;
  provider: string;
  kind: 'api_key' | 'oauth';
  label: string;
  scopes: string;
  base_url: string | null;
  status: ConnectionStatus;
  status_reason: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  refreshed_at: number | null;
}

const toConnection = (row: Row): Connection => ({
  id: row.id,
  provider: row.provider,
  kind: row.kind,
  label: row.label,
  scopes: JSON.parse(row.scopes) as string[],
  baseUrl: row.base_url,
  status: row.status,
  statusReason: row.status_reason,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  refreshedAt: row.refreshed_at,
});

/**
 * The vault_connections table (migration 9): connection metadata in SQLite. The free text in it (the label the user
 * typed, a failure's reason) is scrubbed before it is stored: a key pasted into the label field stays out of SQLite.
 */
export class ConnectionStore {
  constructor(
    private readonly db: Database,
    private readonly scrubber: SecretScrubber = new SecretScrubber(),
  ) {}

  /** Stores the connection; returns it as stored (its label scrubbed). */
  insert(given: Connection): Connection {
    const connection = { ...given, label: this.scrubber.scrubText(given.label), statusReason: given.statusReason === null ? null : this.scrubber.scrubText(given.statusReason) };
    this.db
      .prepare(
        `INSERT INTO vault_connections (id, provider, kind, label, scopes, base_url, status, status_reason, expires_at, created_at, updated_at, refreshed_at)
         VALUES (@id, @provider, @kind, @label, @scopes, @baseUrl, @status, @statusReason, @expiresAt, @createdAt, @updatedAt, @refreshedAt)`,
      )
      .run({ ...connection, scopes: JSON.stringify(connection.scopes) });
    return connection;
  }

  get(id: string): Connection | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM vault_connections WHERE id = ?').get(id);
    return row ? toConnection(row) : undefined;
  }

  /** Newest first; disconnected ones only when asked for. */
  list(includeDisconnected = false): Connection[] {
    const rows = this.db
      .prepare<[], Row>(`SELECT * FROM vault_connections ${includeDisconnected ? '' : "WHERE status != 'disconnected'"} ORDER BY created_at DESC, id`)
      .all();
    return rows.map(toConnection);
  }

  setStatus(id: string, status: ConnectionStatus, reason: string | null, now: number): void {
    this.db.prepare('UPDATE vault_connections SET status = ?, status_reason = ?, updated_at = ? WHERE id = ?').run(status, reason === null ? null : this.scrubber.scrubText(reason), now, id);
  }

  /** A connection whose key was replaced: working again (a key missing from the keychain is there now). */
  markKeyReplaced(id: string, now: number): void {
    this.db.prepare("UPDATE vault_connections SET status = 'connected', status_reason = NULL, updated_at = ? WHERE id = ?").run(now, id);
  }

  markRefreshed(id: string, expiresAt: number | null, scopes: string[] | null, now: number): void {
    this.db
      .prepare('UPDATE vault_connections SET expires_at = ?, scopes = coalesce(?, scopes), refreshed_at = ?, updated_at = ? WHERE id = ?')
      .run(expiresAt, scopes === null ? null : JSON.stringify(scopes), now, now, id);
  }
}
