// Signed checkpoints against the REAL OS keychain (a private gnome-keyring when no session bus is around).
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { checkpointMessage } from '../../src-main/node/ledger/checkpoint';
import { entryHash, payloadCommit } from '../../src-main/node/ledger/entryHash';
import { deleteLedgerRecords, ledgerFileIdentity } from '../../src-main/node/ledger/ledgerRecord';
import { loadOrCreateSigningKey, signingKeyAccount } from '../../src-main/node/ledger/ledgerSigningKey';
import { keychainTrust } from '../../src-main/node/ledger/ledgerTrust';
import { storedCheckpoints, storedEntries, storedLedgerId } from '../../src-main/node/ledger/storedEntries';
import { verifyLedger } from '../../src-main/node/ledger/verifyLedger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import type { Keychain } from '../../src-main/node/vault/keychain';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { describeLedgerVerdict } from '../../src-preload/contract';
import { tempDir } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

const EVERY = 100;
const ENTRIES = 250;

/** A ledger of ENTRIES entries signed with a fresh key from the real keychain, closed (so its tail is signed too). */
async function signedLedger(t: TestContext): Promise<{ file: string; keychain: Keychain; ledgerId: string; dir: string }> {
  const dir = tempDir('checkpoints');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const db = openDatabase(file);
  const keychain = await openKeychain();
  const ledger = new Ledger(db, { checkpointEvery: EVERY });
  ledger.append({ type: 'host.start', actor: 'host' });
  const ledgerId = ledger.ledgerId!;
  t.after(async () => {
    await keychain.delete(signingKeyAccount(ledgerId));
    await deleteLedgerRecords(keychain, ledgerFileIdentity(file), ledgerId);
  });
  ledger.startSigning(await loadOrCreateSigningKey(keychain, ledgerId), { keychain, file: ledgerFileIdentity(file) });
  for (let i = 1; i < ENTRIES; i++) ledger.append({ type: 'test.entry', actor: i % 2 ? 'user' : 'agent-1', payload: { i } });
  await ledger.close();
  db.close();
  return { file, keychain, ledgerId, dir: dir.path };
}

/**
 * Verifies `file` (a copy of the signed `original`, or the original) against the keychain. A copy is checked against
 * the original's record, as `omni ledger verify` checks a file by its own record and its copies' records.
 */
async function verifyFile(file: string, keychain: Keychain, mutate?: (db: Database) => void, asFile = file) {
  const db = openDatabase(file);
  try {
    if (mutate) {
      db.exec('DROP TRIGGER audit_ledger_no_update; DROP TRIGGER audit_ledger_no_delete; DROP TRIGGER ledger_checkpoints_no_delete;');
      mutate(db);
    }
    const trust = await keychainTrust(keychain, { file: ledgerFileIdentity(asFile), ledgerId: storedLedgerId(db) });
    return verifyLedger(storedEntries(db), storedCheckpoints(db), trust);
  } finally {
    db.close();
  }
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename);
} else {
  test('checkpoints are signed every N entries and on close; verify names the last one', async (t) => {
    const { file, keychain } = await signedLedger(t);
    const db = openDatabase(file);
    // Signing starts by covering what is there already (entry 1 here): nothing is left unsigned across restarts.
    assert.deepEqual(storedCheckpoints(db).map((c) => c.size), [1, 100, 200, 250]);
    db.close();
    const verdict = await verifyFile(file, keychain);
    assert.ok(verdict.intact, describeLedgerVerdict(verdict));
    assert.equal(verdict.checkpoint?.seq, ENTRIES);
    assert.equal(verdict.checkpoint?.keySource, 'keychain');
    assert.match(describeLedgerVerdict(verdict), new RegExp(`^intact: ${ENTRIES} entries, head [0-9a-f]{64}, last signed checkpoint at seq ${ENTRIES}$`));
  });

  test('deleting the last 1-10 entries is caught against the last signed checkpoint, and against the keychain when its checkpoints go too', async (t) => {
    const { file, keychain, dir } = await signedLedger(t);
    for (let removed = 1; removed <= 10; removed++) {
      const copy = join(dir, `cut-${removed}.db`);
      copyFileSync(file, copy);
      // Checked as the original file (its record), as if the original had been cut in place.
      const verdict = await verifyFile(copy, keychain, (db) => db.prepare('DELETE FROM audit_ledger WHERE seq > ?').run(ENTRIES - removed), file);
      assert.equal(verdict.intact, false, `removing the last ${removed} went unnoticed`);
      if (!verdict.intact) {
        assert.equal(verdict.firstBadSeq, ENTRIES - removed + 1);
        assert.match(verdict.reason, new RegExp(`entries ${ENTRIES - removed + 1}-${ENTRIES} were removed`));
      }
      const both = join(dir, `cut-both-${removed}.db`);
      copyFileSync(file, both);
      const hidden = await verifyFile(both, keychain, (db) => {
        db.prepare('DELETE FROM audit_ledger WHERE seq > ?').run(ENTRIES - removed);
        db.prepare('DELETE FROM ledger_checkpoints WHERE size > ?').run(ENTRIES - removed);
      }, file);
      assert.equal(hidden.intact, false, `removing the last ${removed} with their checkpoint went unnoticed`);
      if (!hidden.intact) assert.match(hidden.reason, /the keychain records a signed checkpoint at seq 250/);
    }
  });

  test('a chain rewritten without the key is caught at the checkpoint that covers it', async (t) => {
    const { file, keychain } = await signedLedger(t);
    const verdict = await verifyFile(file, keychain, (db) => {
      // Re-chain entries 150..250 with a changed payload: every hash recomputed, as a forger without the key would.
      const rows = db.prepare<[], { seq: number; ts: number; type: string; actor: string; session_id: string | null; salt: Buffer }>('SELECT * FROM audit_ledger WHERE seq >= 150 ORDER BY seq').all();
      let prev = db.prepare<[], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = 149').get()!.entry_hash;
      const update = db.prepare('UPDATE audit_ledger SET payload = ?, payload_commit = ?, prev_hash = ?, entry_hash = ? WHERE seq = ?');
      for (const row of rows) {
        const payload = JSON.stringify({ i: row.seq === 150 ? 'forged' : row.seq - 1 });
        const commit = payloadCommit(row.salt, payload);
        const hash = entryHash({ seq: row.seq, ts: row.ts, type: row.type, actor: row.actor, sessionId: row.session_id, payloadCommit: commit, prevHash: prev });
        update.run(payload, commit, prev, hash, row.seq);
        prev = hash;
      }
    });
    assert.equal(verdict.intact, false);
    if (!verdict.intact) {
      assert.equal(verdict.firstBadSeq, 101);
      assert.match(verdict.reason, /checkpoint at seq 200 vouches for an entry 200 .* entries 101-200 were rewritten/);
    }
  });

  test('checkpoints re-signed with another key are refused: the keychain pins the ledger key', async (t) => {
    const { file, keychain, ledgerId } = await signedLedger(t);
    const verdict = await verifyFile(file, keychain, (db) => {
      const forger = generateKeyPairSync('ed25519');
      const publicKey = forger.publicKey.export({ format: 'der', type: 'spki' });
      const checkpoints = storedCheckpoints(db);
      db.exec('DELETE FROM ledger_checkpoints');
      let prev: Buffer | null = null;
      for (const c of checkpoints) {
        const signature: Buffer = sign(null, checkpointMessage(Buffer.from(ledgerId, 'hex'), c.size, c.headHash, prev), forger.privateKey);
        db.prepare('INSERT INTO ledger_checkpoints (size, ts, head_hash, prev_signature, signature, public_key) VALUES (?, ?, ?, ?, ?, ?)').run(c.size, c.ts, c.headHash, prev, signature, publicKey);
        prev = signature;
      }
    });
    assert.equal(verdict.intact, false);
    if (!verdict.intact) assert.match(verdict.reason, /checkpoint at seq 1 was signed by key [0-9a-f]{16}, not by the ledger's key/);
  });

  test('a crash that skipped the closing checkpoint is covered when signing starts again', async (t) => {
    const dir = tempDir('checkpoints');
    t.after(dir.cleanup);
    const file = join(dir.path, 'sessions.db');
    const keychain = await openKeychain();
    let db = openDatabase(file);
    let ledger = new Ledger(db, { checkpointEvery: EVERY });
    ledger.append({ type: 'host.start', actor: 'host' });
    const ledgerId = ledger.ledgerId!;
    t.after(async () => {
      await keychain.delete(signingKeyAccount(ledgerId));
      await deleteLedgerRecords(keychain, ledgerFileIdentity(file), ledgerId);
    });
    ledger.startSigning(await loadOrCreateSigningKey(keychain, ledgerId), { keychain, file: ledgerFileIdentity(file) });
    for (let i = 0; i < 130; i++) ledger.append({ type: 'test.entry', actor: 'user', payload: { i } });
    ledger.flush();
    db.close(); // no close(): as if the process died
    db = openDatabase(file);
    ledger = new Ledger(db, { checkpointEvery: EVERY });
    ledger.startSigning(await loadOrCreateSigningKey(keychain, ledgerId), { keychain, file: ledgerFileIdentity(file) });
    assert.deepEqual(storedCheckpoints(db).map((c) => c.size), [1, 100, 131]);
    await ledger.close();
    db.close();
    const verdict = await verifyFile(file, keychain);
    assert.ok(verdict.intact && verdict.checkpoint?.seq === 131, describeLedgerVerdict(verdict));
  });
}
