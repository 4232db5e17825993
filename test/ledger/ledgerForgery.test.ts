// The ledger attacked the way someone with file access would: checkpoints stripped and the chain re-hashed, the
// ledger cut before its first checkpoint, emptied, a host started on the forgery, a copy run beside the original.
// Against the REAL keychain and the real `omni` CLI; every attack must fail verify, and the genuine home must still
// verify afterwards.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createHostServices } from '../../src-main/node/hostServices';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { deleteLedgerRecords, fileRecordAccount, ledgerFileIdentity, ledgerFilesAccount, legacyRecordAccount, readFileRecord } from '../../src-main/node/ledger/ledgerRecord';
import { signingKeyAccount } from '../../src-main/node/ledger/ledgerSigningKey';
import { decideSigning } from '../../src-main/node/ledger/signingGate';
import { storedCheckpoints } from '../../src-main/node/ledger/storedEntries';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import type { Keychain } from '../../src-main/node/vault/keychain';
import { Secret } from '../../src-main/node/vault/secret';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { forge, headOf, rewriteAndRechain } from './forgeLedger';

const cli = omniCli();
/** Entries written before signing starts: the first checkpoint then lands at this seq, not at 1. */
const BEFORE_SIGNING = 30;
const ENTRIES = 277;
const EVERY = 100;

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

const dbOf = (home: string): string => join(home, 'memory', 'sessions.db');

/** Checkpoints deleted and the ledger cut to a few entries before the first of them. */
const cutBeforeFirstCheckpoint = (db: Database): void => {
  db.exec('DELETE FROM ledger_checkpoints');
  db.prepare('DELETE FROM audit_ledger WHERE seq >= ?').run(BEFORE_SIGNING - 5);
};

/**
 * A genuine home: ENTRIES entries, signed through the same gate the host uses, checkpoints at 30, 100, 200 and 277
 * (the closing one), the keychain's record at 277.
 */
async function genuineHome(t: TestContext, keychain: Keychain): Promise<{ home: string; ledgerId: string }> {
  const dir = tempDir('genuine');
  const file = dbOf(dir.path);
  const db = openDatabase(file);
  const ledger = new Ledger(db, { checkpointEvery: EVERY });
  for (let i = 1; i <= BEFORE_SIGNING; i++) ledger.append({ type: 'test.entry', actor: 'user', payload: { i } });
  const ledgerId = ledger.ledgerId!;
  const decision = await decideSigning(keychain, file, ledgerId);
  assert.ok(decision.sign, 'a new ledger is signed');
  ledger.startSigning(decision.key, decision.record);
  for (let i = BEFORE_SIGNING + 1; i <= ENTRIES; i++) ledger.append({ type: 'test.entry', actor: i % 2 ? 'user' : 'agent-1', payload: { i } });
  await ledger.close();
  db.close();
  t.after(async () => {
    await keychain.delete(signingKeyAccount(ledgerId));
    await deleteLedgerRecords(keychain, ledgerFileIdentity(file), ledgerId);
    dir.cleanup();
  });
  return { home: dir.path, ledgerId };
}

/** A copy of `home` in a folder of its own (cleaned up with the test), as a backup or an attacker's work copy. */
function copyOf(t: TestContext, home: string, keychain: Keychain): string {
  const dir = tempDir('copy');
  cpSync(home, dir.path, { recursive: true });
  t.after(async () => {
    await deleteLedgerRecords(keychain, ledgerFileIdentity(dbOf(dir.path)));
    dir.cleanup();
  });
  return dir.path;
}

function assertGenuineStillVerifies(home: string): void {
  const verdict = omni('ledger', 'verify', '--home', home);
  assert.equal(verdict.code, 0, `the genuine home no longer verifies:\n${verdict.out}`);
  assert.match(verdict.out, new RegExp(`^intact: ${ENTRIES} entries, head [0-9a-f]{64}, last signed checkpoint at seq ${ENTRIES}$`, 'm'));
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 240_000);
} else {
  test('checkpoints stripped and the chain re-hashed: NOT INTACT in place and in a copy, and the genuine home still verifies', async (t) => {
    const keychain = await openKeychain();
    const { home } = await genuineHome(t, keychain);
    const copy = copyOf(t, home, keychain);
    forge(dbOf(copy), (db) => {
      db.exec('DELETE FROM ledger_checkpoints');
      rewriteAndRechain(db, 150, { i: 'forged' });
    });
    const inCopy = omni('ledger', 'verify', '--home', copy);
    assert.equal(inCopy.code, 1, inCopy.out);
    assert.match(inCopy.out, new RegExp(`NOT INTACT: changed within entries 1-${ENTRIES}: this file is a copy of the ledger at .*sessions\\.db, which the keychain records as signed up to seq ${ENTRIES}`));
    assert.match(inCopy.out, /rewritten and re-chained after they were signed/);

    // The same forgery in place: the file's own record catches it.
    forge(dbOf(home), (db) => db.exec('DELETE FROM ledger_checkpoints'));
    const stripped = omni('ledger', 'verify', '--home', home);
    assert.equal(stripped.code, 1, stripped.out);
    assert.match(stripped.out, new RegExp(`NOT INTACT: .*the keychain records a signed checkpoint at seq ${ENTRIES}, but it has no signed checkpoint: checkpoints were deleted`));
    forge(dbOf(home), (db) => rewriteAndRechain(db, 150, { i: 'forged' }));
    const rechained = omni('ledger', 'verify', '--home', home);
    assert.equal(rechained.code, 1, rechained.out);
    assert.match(rechained.out, new RegExp(`NOT INTACT: changed within entries 1-${ENTRIES}: the keychain records entry ${ENTRIES} as signed with hash`));
  });

  test('a rewrite between two checkpoints is reported as the range the signature covers, not as its first entry', async (t) => {
    const keychain = await openKeychain();
    const { home } = await genuineHome(t, keychain);
    forge(dbOf(home), (db) => rewriteAndRechain(db, 150, { i: 'forged' }));
    const verdict = omni('ledger', 'verify', '--home', home);
    assert.equal(verdict.code, 1, verdict.out);
    // Entry 101 is intact; the checkpoint at 200 only says something in 101-200 changed.
    assert.match(verdict.out, /^NOT INTACT: changed within entries 101-200: the signed checkpoint at seq 200 vouches for an entry 200/m);
    assert.doesNotMatch(verdict.out, /entry 101 is the first bad one/);
  });

  test('cut before its first checkpoint, or emptied, or swapped for another ledger: NOT INTACT, in place and in a copy', async (t) => {
    const keychain = await openKeychain();
    const { home } = await genuineHome(t, keychain);
    const cutCopy = copyOf(t, home, keychain);
    forge(dbOf(cutCopy), cutBeforeFirstCheckpoint);
    const copyVerdict = omni('ledger', 'verify', '--home', cutCopy);
    assert.equal(copyVerdict.code, 1, copyVerdict.out);
    assert.match(copyVerdict.out, /this copy has 24 entries and no signed checkpoint: its checkpoints were deleted, or it was cut before its first one/);

    const emptyCopy = copyOf(t, home, keychain);
    forge(dbOf(emptyCopy), (db) => db.exec('DELETE FROM ledger_checkpoints; DELETE FROM audit_ledger;'));
    // An empty copy has no ledger id to find its siblings by, and no record of its own: nothing vouches for it, and
    // verify says exactly that (never "intact").
    const emptyCopyVerdict = omni('ledger', 'verify', '--home', emptyCopy);
    assert.equal(emptyCopyVerdict.code, 4, emptyCopyVerdict.out);
    assert.match(emptyCopyVerdict.out, /^chain consistent, unsigned: 0 entries/m);

    const snapshot = copyOf(t, home, keychain);
    forge(dbOf(home), cutBeforeFirstCheckpoint);
    const cut = omni('ledger', 'verify', '--home', home);
    assert.equal(cut.code, 1, cut.out);
    assert.match(cut.out, new RegExp(`the keychain records a signed checkpoint at seq ${ENTRIES}, but the ledger ends at seq 24: entries 25-${ENTRIES} were removed`));

    forge(dbOf(home), (db) => db.exec('DELETE FROM audit_ledger'));
    const empty = omni('ledger', 'verify', '--home', home);
    assert.equal(empty.code, 1, empty.out);
    assert.match(empty.out, new RegExp(`NOT INTACT: changed within entries 1-${ENTRIES}: the keychain records this file's ledger [0-9a-f]{16}… as signed up to seq ${ENTRIES}, but the ledger here is empty`));

    // Another ledger in its place (rewritten from its first entry): its id is not the recorded one.
    forge(dbOf(home), () => undefined);
    const other = openDatabase(dbOf(home));
    const fresh = new Ledger(other);
    for (let i = 0; i < 300; i++) fresh.append({ type: 'test.entry', actor: 'user', payload: { i } });
    await fresh.close();
    other.close();
    const swapped = omni('ledger', 'verify', '--home', home);
    assert.equal(swapped.code, 1, swapped.out);
    assert.match(swapped.out, /but the ledger here is another one \([0-9a-f]{16}…\): the file was replaced, or rewritten from its first entry/);

    // Put back as it was, the home verifies: the record never moved.
    cpSync(dbOf(snapshot), dbOf(home));
    assertGenuineStillVerifies(home);
  });

  test('a host started on a forgery signs nothing and never moves the record; the genuine home still verifies', async (t) => {
    const keychain = await openKeychain();
    const { home } = await genuineHome(t, keychain);
    const recordBefore = await readFileRecord(keychain, ledgerFileIdentity(dbOf(home)));
    const untouched = copyOf(t, home, keychain);
    for (const where of ['in a copy', 'in place'] as const) {
      const target = where === 'in place' ? home : copyOf(t, home, keychain);
      forge(dbOf(target), (db) => {
        db.exec('DELETE FROM ledger_checkpoints');
        rewriteAndRechain(db, 150, { i: 'forged' });
      });
      const logged: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string | Uint8Array) => (logged.push(String(chunk)), true)) as typeof process.stderr.write;
      let checkpointsAfter: number;
      try {
        const host = await createHostServices({ home: target, version: '0.0.0-test', keychain: 'os' });
        await host.handlers['ledger.verify']({}, { connectionId: 1, transport: 'memory' });
        for (let i = 0; i < 20; i++) host.ledger.append({ type: 'test.entry', actor: 'user', payload: { after: i } });
        await host.dispose();
        const db = openDatabase(dbOf(target));
        checkpointsAfter = storedCheckpoints(db).length;
        db.close();
      } finally {
        process.stderr.write = write;
      }
      assert.equal(checkpointsAfter, 0, `${where}: the host signed checkpoints over the forgery`);
      assert.match(logged.join(''), /ledger checkpoints are NOT signed: the ledger does not match its keychain record \(NOT INTACT: changed within entries 1-277/);
      assert.deepEqual(await readFileRecord(keychain, ledgerFileIdentity(dbOf(home))), recordBefore, `${where}: the genuine home's record moved`);
      if (where === 'in a copy') assert.equal(await readFileRecord(keychain, ledgerFileIdentity(dbOf(target))), null, 'the forged copy got a record');
    }
    // The genuine ledger put back (the forged one had 20 more entries, never signed): it verifies, the record never moved.
    cpSync(dbOf(untouched), dbOf(home));
    assertGenuineStillVerifies(home);
  });

  test('a copy run beside the original is a fork: each signs its own record, both verify, neither makes the other look tampered', async (t) => {
    const keychain = await openKeychain();
    const { home } = await genuineHome(t, keychain);
    const backup = copyOf(t, home, keychain);
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (logged.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      // The copy runs first and goes further than the original ever did, then the original runs on.
      const forked = await createHostServices({ home: backup, version: '0.0.0-test', keychain: 'os' });
      for (let i = 0; i < 400; i++) forked.ledger.append({ type: 'test.entry', actor: 'user', payload: { fork: i } });
      await forked.dispose();
      const original = await createHostServices({ home, version: '0.0.0-test', keychain: 'os' });
      for (let i = 0; i < 10; i++) original.ledger.append({ type: 'test.entry', actor: 'user', payload: { original: i } });
      await original.dispose();
    } finally {
      process.stderr.write = write;
    }
    assert.match(logged.join(''), /this home's ledger is a copy of the one at .*: from now on it is signed as a fork with a keychain record of its own/);
    const forkRecord = await readFileRecord(keychain, ledgerFileIdentity(dbOf(backup)));
    assert.equal(forkRecord?.forkOf?.size, ENTRIES);

    const originalVerdict = omni('ledger', 'verify', '--home', home);
    assert.equal(originalVerdict.code, 0, originalVerdict.out);
    assert.match(originalVerdict.out, /note: the same ledger is also kept at .*sessions\.db \(signed there up to seq \d+\): a fork/);
    const forkVerdict = omni('ledger', 'verify', '--home', backup);
    assert.equal(forkVerdict.code, 0, forkVerdict.out);
    assert.match(forkVerdict.out, new RegExp(`note: this file is a fork: it began signing as a copy of the ledger at .*sessions\\.db \\(signed there up to seq ${ENTRIES}\\)`));
    const originalHead = headOf(openDatabase(dbOf(home)));
    assert.ok(originalHead.size > ENTRIES);
  });

  test("a record the previous version kept per ledger id is honoured: stripping is caught, and the next start moves it to the file's own record", async (t) => {
    const keychain = await openKeychain();
    const { home, ledgerId } = await genuineHome(t, keychain);
    const file = ledgerFileIdentity(dbOf(home));
    const record = (await readFileRecord(keychain, file))!;
    // As an older version left it: one record under the ledger id, no per-file record, no index.
    await keychain.set(legacyRecordAccount(ledgerId), new Secret(JSON.stringify({ size: record.size, headHash: record.headHash, signature: record.signature })));
    await keychain.delete(fileRecordAccount(file));
    await keychain.delete(ledgerFilesAccount(ledgerId));
    const untouched = copyOf(t, home, keychain);
    forge(dbOf(home), (db) => db.exec('DELETE FROM ledger_checkpoints'));
    const stripped = omni('ledger', 'verify', '--home', home);
    assert.equal(stripped.code, 1, stripped.out);
    assert.match(stripped.out, new RegExp(`the keychain records a signed checkpoint at seq ${ENTRIES}, but it has no signed checkpoint`));

    cpSync(dbOf(untouched), dbOf(home));
    const host = await createHostServices({ home, version: '0.0.0-test', keychain: 'os' });
    await host.handlers['ledger.verify']({}, { connectionId: 1, transport: 'memory' });
    await host.dispose();
    const migrated = await readFileRecord(keychain, file);
    assert.equal(migrated?.ledgerId, ledgerId);
    assert.ok(migrated!.size > ENTRIES, 'the file record was not written at the next start');
    assert.equal(omni('ledger', 'verify', '--home', home).code, 0);
  });
}
