// Exported ledgers attacked offline: checkpoints stripped, a forged export re-hashed, an export cut and its header
// and end line fixed. Through the real `omni` CLI, with the ledger signed by a key in the REAL keychain.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { canonicalJson } from '../../src-main/node/ledger/canonicalJson';
import { entryHash, payloadCommit } from '../../src-main/node/ledger/entryHash';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { deleteLedgerRecords, ledgerFileIdentity } from '../../src-main/node/ledger/ledgerRecord';
import { signingKeyAccount } from '../../src-main/node/ledger/ledgerSigningKey';
import { decideSigning } from '../../src-main/node/ledger/signingGate';
import { openDatabase } from '../../src-main/node/store/database';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

const cli = omniCli();
const SIGNED = 120;
/** Entries appended after the newest checkpoint: the host is still running when the export is made. */
const UNSIGNED_TAIL = 7;

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

interface Line {
  [key: string]: unknown;
}

/** A home signed up to SIGNED (checkpoints every 50 and at SIGNED), then UNSIGNED_TAIL entries more; its export and key. */
async function exported(t: TestContext): Promise<{ dir: string; file: string; keyFile: string }> {
  const home = tempDir('export-forgery');
  const keychain = await openKeychain();
  const dbFile = join(home.path, 'memory', 'sessions.db');
  const db = openDatabase(dbFile);
  const ledger = new Ledger(db, { checkpointEvery: 50 });
  ledger.append({ type: 'host.start', actor: 'host' });
  const ledgerId = ledger.ledgerId!;
  t.after(async () => {
    await keychain.delete(signingKeyAccount(ledgerId));
    await deleteLedgerRecords(keychain, ledgerFileIdentity(dbFile), ledgerId);
    home.cleanup();
  });
  const decision = await decideSigning(keychain, dbFile, ledgerId);
  assert.ok(decision.sign);
  ledger.startSigning(decision.key, decision.record);
  for (let i = 2; i <= SIGNED; i++) ledger.append({ type: 'grant.issue', actor: 'user', payload: { scope: `host-${i}.example` } });
  await ledger.close();
  const more = new Ledger(db);
  for (let i = 1; i <= UNSIGNED_TAIL; i++) more.append({ type: 'test.entry', actor: 'user', payload: { i } });
  more.flush();
  db.close();
  const file = join(home.path, 'ledger.jsonl');
  const result = omni('ledger', 'export', '--home', home.path, '--out', file);
  assert.equal(result.code, 0, result.out);
  assert.doesNotMatch(result.out, /NOT signed/);
  const keyFile = join(home.path, 'key.pem');
  assert.equal(omni('ledger', 'key', '--home', home.path, '--out', keyFile).code, 0);
  return { dir: home.path, file, keyFile };
}

const read = (file: string): Line[] => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
const write = (file: string, lines: Line[]): void => writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
const isEntry = (line: Line): boolean => typeof line.seq === 'number';

/** Re-hashes the entries from `seq` on, after `payload` replaced that entry's payload; fixes header and end. */
function rechain(lines: Line[], seq: number, payload: Record<string, unknown>): void {
  let prev: Buffer | undefined;
  for (const line of lines.filter(isEntry)) {
    if ((line.seq as number) < seq) {
      prev = Buffer.from(line.entryHash as string, 'hex');
      continue;
    }
    if (line.seq === seq) line.payload = payload;
    const commit = payloadCommit(Buffer.from(line.salt as string, 'hex'), canonicalJson(line.payload));
    const hash = entryHash({ seq: line.seq as number, ts: line.ts as number, type: line.type as string, actor: line.actor as string, sessionId: line.sessionId as string | null, payloadCommit: commit, prevHash: prev! });
    Object.assign(line, { payloadCommit: commit.toString('hex'), prevHash: prev!.toString('hex'), entryHash: hash.toString('hex') });
    prev = hash;
  }
  fixEnds(lines);
}

/** Makes the header and end line agree with the entries and checkpoints left, as a careful forger would. */
function fixEnds(lines: Line[], signature: string | null = null): void {
  const entries = lines.filter(isEntry);
  const last = entries[entries.length - 1];
  lines[0].size = last.seq;
  lines[0].headHash = last.entryHash;
  const end = lines[lines.length - 1].end as Line;
  Object.assign(end, { entries: entries.length, checkpoints: lines.filter((l) => 'checkpoint' in l).length, size: last.seq, headHash: last.entryHash, signature });
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 180_000);
} else {
  test('a genuine export whose last entries came after the newest checkpoint verifies with --key: its signed end line covers them', async (t) => {
    const { file, keyFile } = await exported(t);
    const pinned = omni('ledger', 'verify', '--file', file, '--key', keyFile);
    assert.equal(pinned.code, 0, pinned.out);
    assert.match(pinned.out, new RegExp(`^intact: ${SIGNED + UNSIGNED_TAIL} entries, head [0-9a-f]{64}, last signed checkpoint at seq ${SIGNED}$`, 'm'));
    assert.match(pinned.out, new RegExp(`note: entries ${SIGNED + 1}-${SIGNED + UNSIGNED_TAIL} are covered by the export's signed end line`));
  });

  test('an export stripped of its checkpoints is only "chain consistent, unsigned" (exit 4), and fails with --key', async (t) => {
    const { dir, file, keyFile } = await exported(t);
    const lines = read(file).filter((line) => !('checkpoint' in line));
    const stripped = join(dir, 'stripped.jsonl');
    fixEnds(lines);
    write(stripped, lines);
    const unpinned = omni('ledger', 'verify', '--file', stripped);
    assert.equal(unpinned.code, 4, unpinned.out);
    assert.match(unpinned.out, /^chain consistent, unsigned: \d+ entries, head [0-9a-f]{64}; no signed checkpoint, so this proves nothing about who wrote it$/m);
    assert.doesNotMatch(unpinned.out, /^intact/m);
    const pinned = omni('ledger', 'verify', '--file', stripped, '--key', keyFile);
    assert.equal(pinned.code, 1, pinned.out);
    assert.match(pinned.out, /NOT INTACT: .*not covered by a signature of the pinned key: the export carries no checkpoint signed by it/);
  });

  test('a forged export re-hashed without its checkpoints never verifies as intact, and fails with --key', async (t) => {
    const { dir, file, keyFile } = await exported(t);
    const lines = read(file).filter((line) => !('checkpoint' in line));
    rechain(lines, 60, { scope: 'attacker.example' });
    const forged = join(dir, 'forged.jsonl');
    write(forged, lines);
    const unpinned = omni('ledger', 'verify', '--file', forged);
    assert.equal(unpinned.code, 4, unpinned.out);
    assert.match(unpinned.out, /^chain consistent, unsigned/m);
    const pinned = omni('ledger', 'verify', '--file', forged, '--key', keyFile);
    assert.equal(pinned.code, 1, pinned.out);
  });

  test('an export cut short with its header and end line fixed fails: a kept end signature no longer verifies, a dropped one fails --key', async (t) => {
    const { dir, file, keyFile } = await exported(t);
    const original = read(file);
    const endSignature = (original[original.length - 1].end as Line).signature as string;
    assert.match(endSignature, /^[0-9a-f]{128}$/);
    const cutAt = 90;
    const cut = original.filter((line) => !(isEntry(line) && (line.seq as number) > cutAt) && !('checkpoint' in line && ((line.checkpoint as Line).size as number) > cutAt));

    const keptSignature = join(dir, 'cut-signed.jsonl');
    const withSignature = structuredClone(cut);
    fixEnds(withSignature, endSignature);
    write(keptSignature, withSignature);
    const tampered = omni('ledger', 'verify', '--file', keptSignature);
    assert.equal(tampered.code, 1, tampered.out);
    assert.match(tampered.out, /the end line's signature does not verify with the ledger's key/);

    const droppedSignature = join(dir, 'cut-unsigned.jsonl');
    const withoutSignature = structuredClone(cut);
    fixEnds(withoutSignature, null);
    write(droppedSignature, withoutSignature);
    const pinned = omni('ledger', 'verify', '--file', droppedSignature, '--key', keyFile);
    assert.equal(pinned.code, 1, pinned.out);
    assert.match(pinned.out, new RegExp(`NOT INTACT: .*the export's last entry \\(seq ${cutAt}\\) is not covered by a signature of the pinned key: its end line is not signed`));
  });
}
