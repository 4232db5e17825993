import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { DatabaseDamagedError, openDatabase, openDatabaseReadOnly, SchemaTooNewError } from '../../src-main/node/store/database';
import { migrations } from '../../src-main/node/store/migrations';
import { tempDir } from '../helpers';

test('a new database gets every migration, WAL mode, and a user-only file mode', (t) => {
  const dir = tempDir('store');
  t.after(dir.cleanup);
  const file = join(dir.path, 'memory', 'sessions.db');
  const db = openDatabase(file);
  assert.equal(db.pragma('user_version', { simple: true }), migrations.at(-1)!.version);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  db.close();
  assert.equal(statSync(file).mode & 0o777, 0o600);
});

test('a database written by a newer schema is refused and left byte-for-byte untouched', (t) => {
  const dir = tempDir('store');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const db = openDatabase(file);
  db.pragma('user_version = 999');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const before = readFileSync(file);
  assert.throws(() => openDatabase(file), (error: unknown) => {
    assert.ok(error instanceof SchemaTooNewError);
    assert.match(error.message, /newer Omniscient Shell \(schema 999/);
    return true;
  });
  assert.deepEqual(readFileSync(file), before);
});

test('a failing migration leaves no partial schema behind', (t) => {
  const dir = tempDir('store');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const broken = [...migrations, { version: 99, name: 'broken', sql: 'CREATE TABLE half_done (x); THIS IS NOT SQL;' }];
  assert.throws(() => openDatabase(file, broken));
  const db = openDatabase(file);
  assert.equal(db.pragma('user_version', { simple: true }), migrations.at(-1)!.version);
  const leftover = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get() as { n: number };
  assert.equal(leftover.n, 0);
  db.close();
});

test('the ledger is append-only: the database refuses UPDATE and DELETE', (t) => {
  const dir = tempDir('store');
  t.after(dir.cleanup);
  const db = openDatabase(join(dir.path, 'sessions.db'));
  t.after(() => db.close());
  const ledger = new Ledger(db);
  const seen: number[] = [];
  ledger.onDidAppend((e) => seen.push(e.seq));
  const first = ledger.append({ type: 'test.one', actor: 'user', payload: { n: 1 } });
  const second = ledger.append({ type: 'test.two', actor: 'host' });
  assert.equal(second.seq, first.seq + 1);
  assert.deepEqual(seen, [], 'listeners hear of an entry only once it has committed');
  ledger.flush();
  assert.deepEqual(seen, [first.seq, second.seq]);
  assert.throws(() => db.prepare("UPDATE audit_ledger SET type = 'forged'").run(), /audit_ledger is append-only: UPDATE refused/);
  assert.throws(() => db.prepare('DELETE FROM audit_ledger').run(), /audit_ledger is append-only: DELETE refused/);
  assert.deepEqual(ledger.list({ limit: 10 }).map((e) => e.type), ['test.two', 'test.one']);
});

test('a damaged database is refused with a clear error and left as it was', (t) => {
  const dir = tempDir('store');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const junk = Buffer.from('this is not a database, just some text a user saved under the wrong name\n'.repeat(100));
  writeFileSync(file, junk);
  assert.throws(() => openDatabase(file), (error: Error) => {
    assert.ok(error instanceof DatabaseDamagedError, String(error));
    assert.match(error.message, /sessions\.db is damaged or is not an Omniscient Shell database .*Move it aside/);
    return true;
  });
  assert.throws(() => openDatabaseReadOnly(file), DatabaseDamagedError);
  assert.ok(readFileSync(file).equals(junk), 'the file was changed');
});
