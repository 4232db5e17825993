import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { Keychain } from '../vault/keychain';
import { Secret } from '../vault/secret';

/**
 * The keychain's record of how far one ledger file has been signed: its ledger id, the size and head hash of its
 * newest checkpoint, and that checkpoint's signature. It lives outside the database, so someone who edits the file
 * (deletes checkpoints, cuts the tail, re-chains a rewrite, empties it or swaps in another ledger) is still caught.
 *
 * A record belongs to one database FILE (its real path), not to the ledger id: a copy of a home (a restored backup
 * running beside the original) holds the same ledger id, and if both copies shared one record, each would advance it
 * and make the other look tampered. Copies are forks: each file has its own record, and an index per ledger id lists
 * the files that hold that ledger, so a copy is recognised as one and checked against its siblings' records.
 */
export interface LedgerRecord {
  /** The real path of the database file this record belongs to. */
  file: string;
  /** Hex of entry 1's hash. */
  ledgerId: string;
  size: number;
  headHash: string;
  signature: string;
  /** Set when this file started signing as a copy of a ledger another file had signed: which, and how far. */
  forkOf?: { file: string; size: number };
}

/** The keychain holds a record that is not one (edited by hand, or written by an incompatible version). */
export class LedgerRecordError extends Error {
  constructor(account: string, what: string) {
    super(
      `the keychain entry ${account} is not a ledger record (${what}); delete that entry only if you are sure the ledger is genuine: verification then has nothing to compare the file against`,
    );
    this.name = 'LedgerRecordError';
  }
}

/** The real path of a database file, so the same file reached by two paths is one file (and its copy is another). */
export function ledgerFileIdentity(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // Not there (yet): name it by its folder's real path, so it matches once created.
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return file;
    }
  }
}

const fileKey = (file: string): string => createHash('sha256').update(file).digest('hex').slice(0, 32);
export const fileRecordAccount = (file: string): string => `ledger-file/${fileKey(file)}/latest-checkpoint`;
export const ledgerFilesAccount = (ledgerId: string): string => `ledger/${ledgerId}/files`;
/** Where versions before per-file records kept the one record of a ledger id; read once to migrate it. */
export const legacyRecordAccount = (ledgerId: string): string => `ledger/${ledgerId}/latest-checkpoint`;

function parseJson(account: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LedgerRecordError(account, `not JSON: ${(error as Error).message}`);
  }
}

function parseRecord(account: string, text: string, file: string): LedgerRecord {
  const value = parseJson(account, text) as Partial<LedgerRecord> | null;
  const hex = (v: unknown, digits: number) => typeof v === 'string' && new RegExp(`^[0-9a-f]{${digits}}$`).test(v);
  if (!value || typeof value !== 'object') throw new LedgerRecordError(account, 'not an object');
  if (!Number.isSafeInteger(value.size) || value.size! < 1) throw new LedgerRecordError(account, '"size" is not a positive whole number');
  if (!hex(value.headHash, 64)) throw new LedgerRecordError(account, '"headHash" is not 64 hex digits');
  if (!hex(value.signature, 128)) throw new LedgerRecordError(account, '"signature" is not 128 hex digits');
  // A legacy record has no ledger id or file (its account named the ledger id); the caller fills them in.
  if (value.ledgerId !== undefined && !hex(value.ledgerId, 64)) throw new LedgerRecordError(account, '"ledgerId" is not 64 hex digits');
  const forkOf = value.forkOf && typeof value.forkOf.file === 'string' && Number.isSafeInteger(value.forkOf.size) ? { file: value.forkOf.file, size: value.forkOf.size } : undefined;
  return {
    file: typeof value.file === 'string' ? value.file : file,
    ledgerId: value.ledgerId ?? '',
    size: value.size!,
    headHash: value.headHash!,
    signature: value.signature!,
    ...(forkOf ? { forkOf } : {}),
  };
}

async function readFilesIndex(keychain: Keychain, ledgerId: string): Promise<string[]> {
  const account = ledgerFilesAccount(ledgerId);
  const stored = await keychain.get(account);
  if (!stored) return [];
  const value = parseJson(account, stored.expose());
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new LedgerRecordError(account, 'not a list of file paths');
  return value as string[];
}

/** This file's record, or null when it has none. */
export async function readFileRecord(keychain: Keychain, file: string): Promise<LedgerRecord | null> {
  const account = fileRecordAccount(file);
  const stored = await keychain.get(account);
  return stored ? parseRecord(account, stored.expose(), file) : null;
}

/** The records of the other files that hold ledger `ledgerId` (copies of it), oldest listed first. */
export async function readSiblingRecords(keychain: Keychain, ledgerId: string, file: string): Promise<LedgerRecord[]> {
  const records: LedgerRecord[] = [];
  for (const other of await readFilesIndex(keychain, ledgerId)) {
    if (other === file) continue;
    const record = await readFileRecord(keychain, other);
    if (record && record.ledgerId === ledgerId) records.push(record);
  }
  return records;
}

/**
 * A record written by a version that kept one record per ledger id, when no file has claimed that ledger since: it
 * belonged to the original file, which is the one a user upgrades in place. Null once any file has a record of its own.
 */
export async function readLegacyRecord(keychain: Keychain, ledgerId: string, file: string): Promise<LedgerRecord | null> {
  const account = legacyRecordAccount(ledgerId);
  const stored = await keychain.get(account);
  if (!stored || (await readFilesIndex(keychain, ledgerId)).length > 0) return null;
  return { ...parseRecord(account, stored.expose(), file), ledgerId, file };
}

/** Stores this file's record and lists the file under its ledger id (once). */
export async function writeFileRecord(keychain: Keychain, record: LedgerRecord): Promise<void> {
  await keychain.set(fileRecordAccount(record.file), new Secret(JSON.stringify(record)));
  const files = await readFilesIndex(keychain, record.ledgerId);
  if (!files.includes(record.file)) await keychain.set(ledgerFilesAccount(record.ledgerId), new Secret(JSON.stringify([...files, record.file])));
}

/** Removes every record of `file` and, when given, the ledger's index and legacy record (tests clean up with it). */
export async function deleteLedgerRecords(keychain: Keychain, file: string, ledgerId?: string): Promise<void> {
  await keychain.delete(fileRecordAccount(file));
  if (ledgerId) {
    await keychain.delete(ledgerFilesAccount(ledgerId));
    await keychain.delete(legacyRecordAccount(ledgerId));
  }
}
