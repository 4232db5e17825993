import type BetterSqlite3 from 'better-sqlite3';

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
