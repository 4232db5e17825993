import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { signingKeyOf } from '../../src-main/node/ledger/ledgerSigningKey';
import { storedCheckpoints, storedEntries } from '../../src-main/node/ledger/storedEntries';
import { verifyLedger, type CheckpointTrust } from '../../src-main/node/ledger/verifyLedger';
import { verifyStoredLedger } from '../../src-main/node/ledger/verifyStoredLedger';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

const ENTRIES = 130_000;

test('a large ledger verified by worker threads gets the same verdict as one thread, intact or tampered anywhere', async (t) => {
  const dir = tempDir('parallel');
  t.after(dir.cleanup);
  const original = join(dir.path, 'sessions.db');
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  const trust: CheckpointTrust = { publicKey: key.publicKey, source: 'key-file' };
  const db = openDatabase(original);
  const ledger = new Ledger(db, { checkpointEvery: 10_000 });
  ledger.append({ type: 'host.start', actor: 'host' });
  ledger.startSigning(key, null);
  for (let i = 1; i < ENTRIES; i++) ledger.append({ type: 'test.entry', actor: `agent-${i % 5}`, sessionId: `ses_parallel${i % 3}`, payload: { i } });
  await ledger.close();
  db.close();

  const cases: [string, string | null][] = [
    ['intact', null],
    ['payload in the second half', "UPDATE audit_ledger SET payload = '{\"i\":-1}' WHERE seq = 100001"],
    ['an entry at a slice boundary removed', 'DELETE FROM audit_ledger WHERE seq = 65001'],
    ['the last entry removed (its checkpoint remains)', `DELETE FROM audit_ledger WHERE seq = ${ENTRIES}`],
    ['a checkpoint removed', 'DELETE FROM ledger_checkpoints WHERE size = 50000'],
    ['ts of the first entry', 'UPDATE audit_ledger SET ts = ts + 1 WHERE seq = 1'],
  ];
  for (const [name, sql] of cases) {
    const file = join(dir.path, `${name.replace(/\W+/g, '-')}.db`);
    copyFileSync(original, file);
    const edit = openDatabase(file);
    if (sql) {
      edit.exec('DROP TRIGGER audit_ledger_no_update; DROP TRIGGER audit_ledger_no_delete; DROP TRIGGER ledger_checkpoints_no_delete;');
      edit.exec(sql);
    }
    const sequential = verifyLedger(storedEntries(edit), storedCheckpoints(edit), trust);
    edit.close();
    let threads = 0;
    const parallel = await verifyStoredLedger(file, trust, { onStrategy: (s) => (threads = s.threads) });
    assert.ok(threads >= 2, `${name}: the check ran in one thread`);
    assert.deepEqual(parallel, sequential, name);
    assert.equal(parallel.intact, sql === null, `${name}: ${JSON.stringify(parallel)}`);
  }
});
