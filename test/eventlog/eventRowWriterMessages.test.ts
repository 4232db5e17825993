import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { WorkerMessageError } from '../../src-main/node/base/workerMessage';
import { EventRowWriter } from '../../src-main/node/eventlog/eventRowWriter';
import { openDatabase } from '../../src-main/node/store/database';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { tempDir } from '../helpers';

/** A writer with its real worker thread; `receive` delivers a message to the host as if that thread had posted it. */
function writerWithWorker(t: { after(fn: () => void): void }) {
  const dir = tempDir('event-row-writer');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  const reports: { error: Error; rows: number }[] = [];
  const writer = new EventRowWriter(db, new SecretRegistry(), (error, rows) => reports.push({ error, rows }));
  t.after(() => {
    writer.close();
    db.close();
    dir.cleanup();
  });
  const worker = (writer as unknown as { worker: Worker | undefined }).worker;
  assert.ok(worker, 'the writer thread started');
  return { reports, receive: (message: unknown) => worker.emit('message', message) };
}

test("the writer thread's report of a lost batch reaches onError as it is", (t) => {
  const { reports, receive } = writerWithWorker(t);
  receive({ rows: 3, error: 'SQLITE_FULL: database or disk is full' });
  assert.equal(reports.length, 1);
  assert.equal(reports[0].error.message, 'SQLITE_FULL: database or disk is full');
  assert.equal(reports[0].rows, 3);
});

test('a message of the wrong shape from the writer thread is refused with what was wrong, not used as a report', (t) => {
  const { reports, receive } = writerWithWorker(t);
  receive({ rows: 'all', error: 42 });
  receive('a stray string');
  receive({ rows: 1, error: 'x', extra: true });
  assert.equal(reports.length, 3);
  for (const { error, rows } of reports) {
    assert.ok(error instanceof WorkerMessageError, String(error));
    assert.equal(rows, 0, 'no rows are counted lost on the word of a message that is not a report');
  }
  assert.match(reports[0].error.message, /^the event log's writer thread sent a message the host does not understand: rows: .*; error: /);
  assert.match(reports[1].error.message, /\(message\): /);
  assert.match(reports[2].error.message, /extra/);
});
