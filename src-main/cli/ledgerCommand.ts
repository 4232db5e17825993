import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeLedgerVerdict, ledgerVerdictUnsigned, type LedgerVerdict } from '../../src-preload/contract';
import { databasePath, resolveHome } from '../node/home';
import { exportLedger, LedgerExportError } from '../node/ledger/ledgerExport';
import { loadPublicKey, loadSigningKey, type LedgerSigningKey } from '../node/ledger/ledgerSigningKey';
import type { CheckpointTrust } from '../node/ledger/verifyLedger';
import { keychainTrust } from '../node/ledger/ledgerTrust';
import { ledgerFileIdentity, LedgerRecordError } from '../node/ledger/ledgerRecord';
import { storedLedgerId } from '../node/ledger/storedEntries';
import { verifyExportFile, LedgerFileError } from '../node/ledger/verifyExport';
import { verifyStoredLedger } from '../node/ledger/verifyStoredLedger';
import { DatabaseDamagedError, openDatabaseReadOnly, type Database } from '../node/store/database';
import { keychainChoiceFromEnv, openHostKeychain } from '../node/vault/hostKeychain';
import { parseFlags, UsageError } from './args';

export const ledgerUsage = `  ledger verify [--home DIR]
        Check the audit ledger: hash chain, payload commitments, signed checkpoints, and the OS keychain's record of
        how far this home's ledger was signed. Exit 0 when intact and signed, 1 when not intact, 4 when the chain is
        consistent but nothing signs it (that proves nothing about who wrote it).
  ledger verify --file FILE [--key KEYFILE] [--extends OLDFILE]
        Check an exported ledger offline (same exit codes). --key pins the ledger's public key (from \`omni ledger
        key\`): the export must then carry a checkpoint signed by it and a signed end line covering its last entry.
        --extends checks that FILE continues an earlier export OLDFILE instead of rewriting it.
  ledger export --out FILE [--home DIR] [--session ID] [--redact] [--redact-type TYPE]... [--redact-field PATH]...
        Write the ledger to FILE (JSON Lines) for a reviewer. --session discloses one session's entries only;
        --redact withholds every payload, --redact-type the payloads of a type (\`terminal.*\` for a family),
        --redact-field those with a field (\`env.TOKEN\`). Redacted entries keep their commitments: the file still verifies.
  ledger key [--home DIR] [--out FILE]
        Print (or write) the public key that signs this home's ledger checkpoints, for \`verify --key\`.`;

const flagString = (value: string | true | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const flagList = (value: string | true | string[] | undefined): string[] => (Array.isArray(value) ? value : []);

/** `omni ledger …`: returns the process exit code. */
export async function ledgerCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'verify':
      return verifyCommand(rest);
    case 'export':
      return exportCommand(rest);
    case 'key':
      return keyCommand(rest);
    default:
      throw new UsageError(action ? `unknown ledger action "${action}"` : 'ledger needs an action, e.g. `omni ledger verify`');
  }
}

/** Exit codes of `ledger verify`: intact and signed, not intact, or consistent but unsigned. */
export const VERIFY_EXIT = { intact: 0, notIntact: 1, unsigned: 4 } as const;

function printVerdict(verdict: LedgerVerdict): number {
  console.log(describeLedgerVerdict(verdict));
  if (verdict.intact) for (const note of verdict.notes) console.log(`  note: ${note}`);
  if (!verdict.intact) return VERIFY_EXIT.notIntact;
  return ledgerVerdictUnsigned(verdict) ? VERIFY_EXIT.unsigned : VERIFY_EXIT.intact;
}

/** Opens the home's database read-only, or explains why there is nothing (or nothing readable) to open. */
function openHomeLedger(home: string): Database | null {
  const file = databasePath(home);
  if (!existsSync(file)) {
    console.error(`omni: no ledger at ${file}: nothing has been recorded in this home yet (choose another with --home)`);
    return null;
  }
  try {
    const db = openDatabaseReadOnly(file);
    db.prepare('SELECT 1 FROM audit_ledger LIMIT 1').get();
    return db;
  } catch (error) {
    if (error instanceof DatabaseDamagedError) console.error(`omni: ${error.message}`);
    else console.error(`omni: cannot read the ledger at ${file}: ${(error as Error).message} (check the path and its permissions)`);
    return null;
  }
}

async function verifyCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, { home: 'value', file: 'value', key: 'value', extends: 'value' });
  const file = flagString(flags.file);
  if (file) return verifyFileCommand(file, flagString(flags.key), flagString(flags.extends));
  if (flags.key || flags.extends) throw new UsageError('--key and --extends go with --file (an exported ledger)');
  const home = resolveHome(flagString(flags.home));
  const db = openHomeLedger(home);
  if (!db) return 1;
  let ledgerId: string | null;
  try {
    ledgerId = storedLedgerId(db);
  } catch (error) {
    console.error(`omni: the ledger could not be read: ${(error as Error).message} (the database file is damaged; restore it from a backup)`);
    return 1;
  } finally {
    db.close();
  }
  // The keychain's record is asked whatever the file holds: a file stripped of its checkpoints, cut or emptied
  // has nothing left in it to fail, only the record does.
  const { keychain, problem } = await openHostKeychain(keychainChoiceFromEnv());
  let trust;
  try {
    trust = await keychainTrust(keychain, { file: ledgerFileIdentity(databasePath(home)), ledgerId }, problem ?? undefined);
  } catch (error) {
    if (!(error instanceof LedgerRecordError)) throw error;
    console.log(`NOT VERIFIABLE: ${error.message}`);
    return VERIFY_EXIT.notIntact;
  }
  let verdict: LedgerVerdict;
  try {
    verdict = await verifyStoredLedger(databasePath(home), trust);
  } catch (error) {
    console.error(`omni: the ledger could not be read to the end: ${(error as Error).message} (the database file is damaged; restore it from a backup)`);
    return 1;
  }
  return printVerdict(verdict);
}

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--key ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const key = text.includes('-----BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key`);
    return key.export({ format: 'der', type: 'spki' });
  } catch (error) {
    throw new UsageError(`--key ${file} is not an Ed25519 public key (${(error as Error).message}); use the PEM that \`omni ledger key\` prints`);
  }
}

async function verifyFileCommand(file: string, keyFile: string | undefined, extendsFile: string | undefined): Promise<number> {
  const publicKey = keyFile ? readKeyFile(keyFile) : null;
  try {
    const older = extendsFile ? await verifyExportFile(extendsFile, publicKey) : undefined;
    if (older && !older.verdict.intact) {
      console.log(`the earlier export ${extendsFile} does not verify: ${describeLedgerVerdict(older.verdict)}`);
      return 1;
    }
    const check = await verifyExportFile(file, publicKey, older ? [older.header.size] : []);
    const code = printVerdict(check.verdict);
    if (code !== 0 || !older) return code;
    const reason = extensionProblem(older, check);
    if (reason) {
      console.log(`DOES NOT EXTEND ${extendsFile}: ${reason}`);
      return 1;
    }
    const added = check.header.size - older.header.size;
    console.log(`extends ${extendsFile}: entries 1-${older.header.size} are the same, ${added} ${added === 1 ? 'entry' : 'entries'} added`);
    return 0;
  } catch (error) {
    if (error instanceof LedgerFileError) {
      console.log(`NOT VERIFIABLE: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function extensionProblem(older: Awaited<ReturnType<typeof verifyExportFile>>, newer: Awaited<ReturnType<typeof verifyExportFile>>): string | null {
  if (older.header.ledgerId !== newer.header.ledgerId) {
    return `they are exports of different ledgers (${older.header.ledgerId.slice(0, 16)}… and ${newer.header.ledgerId.slice(0, 16)}…)`;
  }
  if (newer.header.size < older.header.size) return `it has ${newer.header.size} entries, fewer than the earlier export's ${older.header.size}: entries were removed`;
  const hash = newer.remembered.get(older.header.size);
  if (hash !== older.header.headHash) {
    return `its entry ${older.header.size} is not the earlier export's last entry: the ledger was rewritten at or before seq ${older.header.size}`;
  }
  return null;
}

async function exportCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, { home: 'value', out: 'value', session: 'value', redact: 'flag', 'redact-type': 'values', 'redact-field': 'values' });
  const out = flagString(flags.out);
  if (!out) throw new UsageError('ledger export needs --out FILE');
  const target = resolve(out);
  if (existsSync(target)) {
    console.error(`omni: ${target} exists already; choose a new file (an export is never written over another)`);
    return 1;
  }
  const home = resolveHome(flagString(flags.home));
  const db = openHomeLedger(home);
  if (!db) return 1;
  const showProgress = process.stderr.isTTY;
  try {
    const signing = await endSigning(home, storedLedgerId(db));
    const summary = await exportLedger(
      db,
      target,
      { sessionId: flagString(flags.session), redactAll: flags.redact === true, redactTypes: flagList(flags['redact-type']), redactFields: flagList(flags['redact-field']) },
      {
        onProgress: ({ written, total }) => {
          if (showProgress) process.stderr.write(`\rexporting: ${written}/${total} entries`);
        },
        ...(signing.signEnd ? { signEnd: signing.signEnd } : {}),
      },
    );
    if (showProgress) process.stderr.write('\n');
    const parts = [`${summary.entries} entries`, `${summary.redacted} redacted`, `${summary.elided} elided`, `${summary.checkpoints} signed checkpoints`];
    console.log(`exported ${parts.join(', ')} to ${summary.file} (${summary.bytes} bytes); verify with: omni ledger verify --file ${summary.file}`);
    if (!summary.signed) console.error(`omni: the export's end line is NOT signed: ${signing.why ?? summary.unsignedWhy}; it will not verify with --key`);
    return 0;
  } catch (error) {
    if (error instanceof LedgerExportError) {
      console.error(`omni: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    db.close();
  }
}

/**
 * What signs an export's end line: this home's ledger key from the keychain, with the keychain's trust (key and
 * record) that the exported entries are checked against as they are written. Nothing when the keychain cannot be
 * reached or holds no key for the ledger, and then why.
 */
async function endSigning(home: string, ledgerId: string | null): Promise<{ signEnd?: { key: LedgerSigningKey; trust: CheckpointTrust }; why?: string }> {
  if (!ledgerId) return {};
  const { keychain, problem } = await openHostKeychain(keychainChoiceFromEnv());
  if (!keychain) return { why: `the keychain, which holds the signing key, cannot be reached (${problem})` };
  try {
    const key = await loadSigningKey(keychain, ledgerId);
    if (!key) return { why: 'this keychain holds no signing key for this ledger' };
    return { signEnd: { key, trust: await keychainTrust(keychain, { file: ledgerFileIdentity(databasePath(home)), ledgerId }) } };
  } catch (error) {
    return { why: (error as Error).message };
  }
}

async function keyCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, { home: 'value', out: 'value' });
  const db = openHomeLedger(resolveHome(flagString(flags.home)));
  if (!db) return 1;
  let ledgerId: string | null;
  try {
    ledgerId = storedLedgerId(db);
  } finally {
    db.close();
  }
  if (!ledgerId) {
    console.error('omni: the ledger is empty, so it has no signing key yet');
    return 1;
  }
  const { keychain, problem } = await openHostKeychain(keychainChoiceFromEnv());
  if (!keychain) {
    console.error(`omni: the signing key lives in the OS keychain, which cannot be reached: ${problem}`);
    return 1;
  }
  const der = await loadPublicKey(keychain, ledgerId);
  if (!der) {
    console.error('omni: this keychain holds no signing key for this ledger (it is created when the app first runs with a keychain)');
    return 1;
  }
  const pem = createPublicKey({ key: der, format: 'der', type: 'spki' }).export({ format: 'pem', type: 'spki' }).toString();
  const out = flagString(flags.out);
  if (out) {
    writeFileSync(out, pem);
    console.log(`wrote the ledger's public key to ${out}`);
  } else {
    process.stdout.write(pem);
  }
  return 0;
}
