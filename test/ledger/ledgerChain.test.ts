import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { storedEntries } from '../../src-main/node/ledger/storedEntries';
import { verifyChain, type StoredEntry } from '../../src-main/node/ledger/verifyChain';
import { openDatabase } from '../../src-main/node/store/database';
import { migrations } from '../../src-main/node/store/migrations';
import { tempDir } from '../helpers';

const ENTRIES = 10_000;

/** A deterministic pseudo-random sequence, so a failing edit can be reproduced from its index. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function buildLedger(file: string): void {
  const db = openDatabase(file);
  const ledger = new Ledger(db);
  const types = ['session.create', 'terminal.open', 'grant.issue', 'grant.revoke', 'exec.spawn', 'file.write'];
  ledger.transact(() => {
    for (let i = 0; i < ENTRIES; i++) {
      ledger.append({
        type: types[i % types.length],
        actor: i % 3 === 0 ? 'user' : `agent-${i % 7}`,
        sessionId: i % 4 === 0 ? null : `ses_session${i % 13}abc`,
        payload: { i, path: `/work/file-${i}.txt`, note: `entry ${i} ✓`, nested: { ok: i % 2 === 0, list: [i, i * 0.5] } },
      });
    }
  });
  db.close();
}

test('an untouched ledger verifies, and its head is what the writer last appended', (t) => {
  const dir = tempDir('chain');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const db = openDatabase(file);
  const ledger = new Ledger(db);
  ledger.append({ type: 'a', actor: 'user', payload: { x: 1 } });
  ledger.append({ type: 'b', actor: 'host', sessionId: 'ses_abcdefgh1', payload: {} });
  ledger.flush();
  const verdict = verifyChain(storedEntries(db));
  assert.deepEqual(verdict, { intact: true, size: 2, headHash: ledger.headInfo.hash, redacted: 0, elided: 0 });
  db.close();
});

test('1,000 random single-byte edits of a 10k-entry ledger (payload, hash, seq, ts) are each caught at the edited entry', (t) => {
  const dir = tempDir('chain');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  buildLedger(file);
  const db = openDatabase(file);
  const pristine = [...storedEntries(db)];
  db.close();
  assert.equal(verifyChain(pristine).intact, true);
  const random = prng(20261122);
  const fields = ['payload', 'entryHash', 'prevHash', 'payloadCommit', 'seq', 'ts'] as const;
  for (let n = 0; n < 1000; n++) {
    const index = Math.floor(random() * ENTRIES);
    const field = fields[n % fields.length];
    const entries: StoredEntry[] = pristine.slice();
    const edited = { ...entries[index] };
    if (field === 'payload') {
      const text = edited.payload!;
      const at = Math.floor(random() * text.length);
      const code = text.charCodeAt(at);
      edited.payload = text.slice(0, at) + String.fromCharCode(code ^ (1 + Math.floor(random() * 0x1f))) + text.slice(at + 1);
    } else if (field === 'seq' || field === 'ts') {
      edited[field] = edited[field] ^ (1 << Math.floor(random() * 8));
    } else {
      const bytes = Buffer.from(edited[field]);
      bytes[Math.floor(random() * bytes.length)] ^= 1 + Math.floor(random() * 255);
      edited[field] = bytes;
    }
    entries[index] = edited;
    const verdict = verifyChain(entries);
    assert.equal(verdict.intact, false, `edit ${n} (${field} of entry ${index + 1}) went unnoticed`);
    if (!verdict.intact) assert.equal(verdict.firstBadSeq, index + 1, `edit ${n} (${field}): ${verdict.reason}`);
  }
});

test('edits made in the database file itself, bypassing its triggers, are caught too', (t) => {
  const dir = tempDir('chain');
  t.after(dir.cleanup);
  const original = join(dir.path, 'sessions.db');
  buildLedger(original);
  const cases: [string, number][] = [
    ["UPDATE audit_ledger SET payload = replace(payload, 'file-500', 'file-501') WHERE seq = 501", 501],
    ['UPDATE audit_ledger SET ts = ts + 1 WHERE seq = 42', 42],
    ["UPDATE audit_ledger SET actor = 'user' WHERE seq = 8000 AND actor != 'user'", 8000],
    ['DELETE FROM audit_ledger WHERE seq = 1234', 1234],
    ['UPDATE audit_ledger SET seq = 20000 WHERE seq = 9999', 9999],
  ];
  for (const [sql, badSeq] of cases) {
    const file = join(dir.path, `edited-${badSeq}.db`);
    copyFileSync(original, file);
    const db = openDatabase(file);
    db.exec('DROP TRIGGER audit_ledger_no_update; DROP TRIGGER audit_ledger_no_delete;');
    assert.equal(db.prepare(sql).run().changes, 1, sql);
    const verdict = verifyChain(storedEntries(db));
    db.close();
    assert.equal(verdict.intact, false, sql);
    if (!verdict.intact) assert.equal(verdict.firstBadSeq, badSeq, `${sql}: ${verdict.reason}`);
  }
});

test('the database refuses an entry that skips or repeats a seq', (t) => {
  const dir = tempDir('chain');
  t.after(dir.cleanup);
  const db = openDatabase(join(dir.path, 'sessions.db'));
  t.after(() => db.close());
  const ledger = new Ledger(db);
  ledger.append({ type: 'a', actor: 'user' });
  ledger.flush();
  const insert = db.prepare(
    "INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, 0, 't', 'a', NULL, zeroblob(32), zeroblob(32), zeroblob(32), '{}', zeroblob(16))",
  );
  assert.throws(() => insert.run(3), /gapless/);
  assert.throws(() => insert.run(1), /gapless|UNIQUE/);
});

test('upgrading a schema-1 database chains its old ledger entries in order and drops the old table', (t) => {
  const dir = tempDir('chain');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const v1 = openDatabase(file, migrations.slice(0, 1));
  const insert = v1.prepare('INSERT INTO ledger_events (ts, type, actor, session_id, payload) VALUES (?, ?, ?, ?, ?)');
  insert.run(1000, 'session.create', 'user', 'ses_abcdefgh1', JSON.stringify({ workspace: '/w', name: 'w' }));
  insert.run(2000, 'terminal.open', 'user', 'ses_abcdefgh1', JSON.stringify({ terminalId: 'term_abcdefgh1', pid: 42 }));
  insert.run(3000, 'host.stop', 'host', null, '{}');
  v1.close();
  const db = openDatabase(file);
  t.after(() => db.close());
  const verdict = verifyChain(storedEntries(db));
  assert.equal(verdict.intact && verdict.size, 3);
  assert.deepEqual(new Ledger(db).list({ limit: 10 }).map((e) => [e.seq, e.ts, e.type, e.sessionId]), [
    [3, 3000, 'host.stop', null],
    [2, 2000, 'terminal.open', 'ses_abcdefgh1'],
    [1, 1000, 'session.create', 'ses_abcdefgh1'],
  ]);
  assert.equal(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'ledger_events'").pluck().get(), 0);
});
