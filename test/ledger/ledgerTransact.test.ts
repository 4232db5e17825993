import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LedgerEntry } from '../../src-preload/contract';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { storedEntries } from '../../src-main/node/ledger/storedEntries';
import { verifyChain } from '../../src-main/node/ledger/verifyChain';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

function openLedger(t: { after: (fn: () => void) => void }) {
  const dir = tempDir('transact');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  const ledger = new Ledger(db);
  const heard: LedgerEntry[] = [];
  ledger.onDidAppend((entry) => heard.push(entry));
  t.after(() => {
    ledger.dispose();
    db.close();
    dir.cleanup();
  });
  const notes = () => db.prepare<[], { text: string }>('SELECT text FROM notes').all().map((row) => row.text);
  return { db, ledger, heard, notes };
}

test('a change and the entries recording it commit together, and listeners hear the entries only after the commit', (t) => {
  const { db, ledger, heard, notes } = openLedger(t);
  ledger.append({ type: 'before', actor: 'host' });
  const result = ledger.transact(() => {
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('written');
    ledger.append({ type: 'note.write', actor: 'user', payload: { text: 'written' } });
    assert.equal(heard.length, 0, 'nothing is heard before the commit');
    return 42;
  });
  assert.equal(result, 42);
  assert.deepEqual(notes(), ['written']);
  assert.deepEqual(
    heard.map((entry) => [entry.seq, entry.type]),
    [
      [1, 'before'],
      [2, 'note.write'],
    ],
  );
  assert.equal(verifyChain(storedEntries(db)).intact, true);
});

test('when the work throws, neither its change nor its entries land; the chain goes on from the entry before, gapless', (t) => {
  const { db, ledger, heard, notes } = openLedger(t);
  ledger.append({ type: 'first', actor: 'host' });
  const headBefore = ledger.headInfo;
  assert.throws(
    () =>
      ledger.transact(() => {
        db.prepare('INSERT INTO notes (text) VALUES (?)').run('lost');
        ledger.append({ type: 'dropped.one', actor: 'user' });
        ledger.append({ type: 'dropped.two', actor: 'user' });
        throw new Error('the work failed');
      }),
    /the work failed/,
  );
  assert.deepEqual(ledger.headInfo, headBefore, 'the head is the entry before the failed work');
  assert.deepEqual(notes(), []);
  // The entry queued before the transaction is not lost with it.
  const next = ledger.append({ type: 'after', actor: 'host' });
  assert.equal(next.seq, 2);
  ledger.flush();
  assert.deepEqual(
    heard.map((entry) => entry.type),
    ['first', 'after'],
  );
  const entries = [...storedEntries(db)];
  assert.deepEqual(
    entries.map((entry) => entry.seq),
    [1, 2],
  );
  const verdict = verifyChain(entries);
  assert.equal(verdict.intact, true);
  assert.equal(verdict.headHash, ledger.headInfo.hash);
});

test('appending inside a database transaction the ledger does not own is refused with what to use instead', (t) => {
  const { db, ledger } = openLedger(t);
  assert.throws(() => db.transaction(() => ledger.append({ type: 'x', actor: 'host' }))(), /use ledger\.transact\(work\)/);
  assert.throws(() => ledger.transact(() => ledger.transact(() => 1)), /cannot be nested/);
});
