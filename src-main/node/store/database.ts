import type BetterSqlite3 from 'better-sqlite3';
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadNative } from '../base/native';
import { migrations as defaultMigrations, type Migration } from './migrations';

export type Database = BetterSqlite3.Database;

export class SchemaTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `${file} was written by a newer Omniscient Shell (schema ${found}; this version understands up to ${supported}). ` +
        'It was left untouched. Update the app, or point OMNI_HOME at another folder.',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** The database file exists but SQLite cannot read it: damaged, truncated, or not a database at all. */
export class DatabaseDamagedError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(
      `${file} is damaged or is not an Omniscient Shell database (${(cause as Error).message}). Nothing was changed. ` +
        'Move it aside (or restore it from a backup) and start again; `omni ledger verify --home DIR` checks a restored copy.',
      { cause },
    );
    this.name = 'DatabaseDamagedError';
  }
}

/** SQLite's codes for a file it cannot read as a database. */
const DAMAGED = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

function isDamage(error: unknown): boolean {
  return DAMAGED.has((error as { code?: string })?.code ?? '');
}

/**
 * Opens (creating if needed) the app database in WAL mode and brings its schema up to date. All pending
 * migrations run in one BEGIN IMMEDIATE transaction: either every step lands or none does. A database from a
 * newer schema is refused before anything is written to it.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = defaultMigrations): Database {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const Sqlite = loadNative<typeof BetterSqlite3>('better-sqlite3');
  const db = new Sqlite(file, { timeout: 5000 });
  try {
    // Only the user may read the app's data (SQLite gives its -wal and -shm files the same mode).
    chmodSync(file, 0o600);
    const supported = migrations.reduce((max, m) => Math.max(max, m.version), 0);
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > supported) throw new SchemaTooNewError(file, current, supported);
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a power loss can drop the last commits but never corrupts the database.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const pending = migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version);
    if (pending.length > 0) {
      db.transaction(() => {
        for (const step of pending) {
          db.exec(step.sql);
          step.migrate?.(db);
          db.pragma(`user_version = ${step.version}`);
        }
      }).immediate();
    }
    return db;
  } catch (error) {
    db.close();
    throw isDamage(error) ? new DatabaseDamagedError(file, error) : error;
  }
}

/**
 * Opens the database for reading only, as `omni ledger verify` and the verifier do: nothing is migrated or
 * written, and in WAL mode it reads a consistent snapshot while the app keeps writing.
 */
export function openDatabaseReadOnly(file: string, migrations: readonly Migration[] = defaultMigrations): Database {
  const Sqlite = loadNative<typeof BetterSqlite3>('better-sqlite3');
  let db: Database;
  try {
    db = new Sqlite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw new Error(`cannot open ${file} for reading: ${(error as Error).message}`);
  }
  const supported = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  let current: number;
  try {
    current = db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    db.close();
    throw isDamage(error) ? new DatabaseDamagedError(file, error) : error;
  }
  if (current !== supported) {
    db.close();
    if (current > supported) throw new SchemaTooNewError(file, current, supported);
    throw new Error(`${file} uses schema ${current}, older than this version's ${supported}: start the app once to upgrade it, then try again`);
  }
  return db;
}
