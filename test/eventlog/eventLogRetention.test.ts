import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Terminal } from '../../src-preload/contract';
import { EventKind } from '../../src-main/node/eventlog/eventKinds';
import { EventLog } from '../../src-main/node/eventlog/eventLog';
import { ReplayError } from '../../src-main/node/eventlog/replayError';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import { EventLogRetention } from '../../src-main/node/eventlog/retention';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';

const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_800_000_000_000;

function freshDb(t: { after(fn: () => void): void }): Database {
  const dir = tempDir('retention');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  t.after(() => {
    db.close();
    dir.cleanup();
  });
  return db;
}

/** A session row (retention reads status and closing time from the sessions table) and its first event. */
function addSession(db: Database, log: EventLog, id: string, status: 'open' | 'closed', updatedAt: number) {
  const record = { id, name: id, workspace: '/w', status, createdAt: 1, updatedAt };
  db.prepare('INSERT INTO sessions (id, name, workspace, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, id, '/w', status, 1, updatedAt);
  log.append({ sessionId: id, kind: EventKind.sessionCreated, payload: record });
  return record;
}

const terminal = (id: string, sessionId: string): Terminal => ({
  id,
  sessionId,
  title: 'bash',
  cwd: '/w',
  pid: 1,
  cols: 80,
  rows: 24,
  status: 'running',
  exitCode: null,
  createdAt: 1,
});

const bytesOfOutput = (db: Database, sessionId: string) =>
  (db.prepare('SELECT coalesce(sum(length(data)), 0) AS n FROM event_log WHERE session_id = ?').get(sessionId) as { n: number }).n;
const kinds = (db: Database, sessionId: string) =>
  (db.prepare('SELECT kind FROM event_log WHERE session_id = ? ORDER BY seq').all(sessionId) as { kind: string }[]).map((r) => r.kind);

test('over its budget a session loses its oldest output, never what replay needs, and replays exactly as before', (t) => {
  const db = freshDb(t);
  // Rows of at most 100 characters, so there is something to choose from.
  const log = new EventLog(db, { maxRowChars: 100 });
  const S = 'ses_retentionbudget1';
  const OPEN = 'term_stillopen0001';
  const GONE = 'term_closedone0001';
  addSession(db, log, S, 'open', NOW);
  log.append({ sessionId: S, kind: EventKind.terminalOpened, subject: OPEN, payload: terminal(OPEN, S) });
  log.append({ sessionId: S, kind: EventKind.terminalOpened, subject: GONE, payload: terminal(GONE, S) });
  for (let i = 0; i < 50; i++) {
    log.append({ sessionId: S, kind: EventKind.terminalOutput, subject: GONE, data: `gone ${i}`.padEnd(100, '.') });
    log.append({ sessionId: S, kind: EventKind.terminalOutput, subject: OPEN, data: `line ${i} \u00e9`.padEnd(100, '-') });
    if (i % 10 === 0) log.append({ sessionId: S, kind: EventKind.terminalResized, subject: OPEN, payload: { cols: 80 + i, rows: 24 } });
  }
  log.append({ sessionId: S, kind: EventKind.terminalClosed, subject: GONE, payload: { reason: 'closed' } });
  const before = replaySession(S, log.events(S), { scrollbackChars: 1000 });
  const stateEventsBefore = kinds(db, S).filter((k) => k !== EventKind.terminalOutput);

  const retention = new EventLogRetention(db, log, { outputBytesPerSession: 0, replayTailChars: 1000, now: () => NOW });
  const report = retention.run();
  assert.equal(report.compactedSessions, 1);
  assert.equal(report.droppedEvents, 90, "all 50 rows of the closed terminal's output and 40 of the open one's");
  assert.deepEqual(replaySession(S, log.events(S), { scrollbackChars: 1000 }), before, 'replay gives the same state, byte for byte');
  // What is left of the output is exactly the open terminal's last 1000 characters (10 rows of 100; 1 byte more each for the é).
  assert.equal(bytesOfOutput(db, S), 10 * 101);
  assert.deepEqual(kinds(db, S).filter((k) => k !== EventKind.terminalOutput && k !== EventKind.dropped), stateEventsBefore, 'state events are kept');
  assert.deepEqual(retention.run(), { expiredSessions: 0, compactedSessions: 0, droppedEvents: 0, droppedBytes: 0 }, 'a second run has nothing left to do');

  // More output later: the next run drops what has scrolled out, and the markers it meets merge with the new ones.
  for (let i = 50; i < 60; i++) log.append({ sessionId: S, kind: EventKind.terminalOutput, subject: OPEN, data: `line ${i} \u00e9`.padEnd(100, '-') });
  const later = replaySession(S, log.events(S), { scrollbackChars: 1000 });
  const markersBefore = kinds(db, S).filter((k) => k === EventKind.dropped).length;
  assert.equal(retention.run().droppedEvents, 10);
  assert.deepEqual(replaySession(S, log.events(S), { scrollbackChars: 1000 }), later);
  const after = kinds(db, S);
  assert.ok(after.filter((k) => k === EventKind.dropped).length < markersBefore, 'markers that became adjacent were merged');
  assert.ok(after.every((k, i) => !(k === EventKind.dropped && after[i + 1] === EventKind.dropped)), 'no two markers side by side');
  log.dispose();
});

test('a budget keeps that many bytes of the newest output, and sessions under it are left alone', (t) => {
  const db = freshDb(t);
  const log = new EventLog(db, { maxRowChars: 100 });
  const BIG = 'ses_retentionbig0001';
  const SMALL = 'ses_retentionsmall01';
  for (const id of [BIG, SMALL]) {
    addSession(db, log, id, 'open', NOW);
    const term = id === BIG ? 'term_bigterminal001' : 'term_smallterminal1';
    log.append({ sessionId: id, kind: EventKind.terminalOpened, subject: term, payload: terminal(term, id) });
    for (let i = 0; i < (id === BIG ? 100 : 10); i++) log.append({ sessionId: id, kind: EventKind.terminalOutput, subject: term, data: 'x'.repeat(100) });
  }
  log.flush();
  const retention = new EventLogRetention(db, log, { outputBytesPerSession: 5000, replayTailChars: 0, now: () => NOW });
  const report = retention.run();
  assert.deepEqual(report, { expiredSessions: 0, compactedSessions: 1, droppedEvents: 50, droppedBytes: 5000 });
  assert.equal(bytesOfOutput(db, BIG), 5000);
  assert.equal(bytesOfOutput(db, SMALL), 1000);
  log.dispose();
});

test('a session closed longer than the limit loses its events; replay says so; a reopened one carries on gaplessly', (t) => {
  const db = freshDb(t);
  const log = new EventLog(db);
  const OLD = 'ses_closedlongago01';
  const RECENT = 'ses_closedrecently1';
  const IDLE = 'ses_openbutidle0001';
  const old = addSession(db, log, OLD, 'closed', NOW - 31 * DAY);
  addSession(db, log, RECENT, 'closed', NOW - 29 * DAY);
  addSession(db, log, IDLE, 'open', NOW - 365 * DAY);
  log.append({ sessionId: OLD, kind: EventKind.terminalOpened, subject: 'term_oldterminal01', payload: terminal('term_oldterminal01', OLD) });
  log.append({ sessionId: OLD, kind: EventKind.terminalOutput, subject: 'term_oldterminal01', data: 'old output' });
  log.append({ sessionId: OLD, kind: EventKind.terminalClosed, subject: 'term_oldterminal01', payload: { reason: 'closed' } });

  const retention = new EventLogRetention(db, log, { closedSessionMaxAgeMs: 30 * DAY, now: () => NOW });
  assert.deepEqual(retention.run(), { expiredSessions: 1, compactedSessions: 0, droppedEvents: 4, droppedBytes: 10 });
  assert.deepEqual(kinds(db, OLD), [EventKind.dropped]);
  assert.throws(() => replaySession(OLD, log.events(OLD)), (e: unknown) => e instanceof ReplayError && /retention removes the events of sessions closed long ago/.test(e.message));
  assert.equal(replaySession(RECENT, log.events(RECENT)).session.id, RECENT);
  assert.equal(replaySession(IDLE, log.events(IDLE)).session.id, IDLE);
  assert.equal(retention.run().expiredSessions, 0, 'an expired session is not expired again');

  // Reopened: its new events follow the marker's seqs, and the log replays again.
  db.prepare("UPDATE sessions SET status = 'open', updated_at = ? WHERE id = ?").run(NOW, OLD);
  assert.equal(log.append({ sessionId: OLD, kind: EventKind.sessionUpdated, payload: { ...old, status: 'open', updatedAt: NOW } }), 5);
  assert.deepEqual(replaySession(OLD, log.events(OLD)), { session: { ...old, status: 'open', updatedAt: NOW }, terminals: [] });
  log.dispose();
});

test('once started, retention runs by itself soon after and then again and again', async (t) => {
  const db = freshDb(t);
  const log = new EventLog(db, { maxRowChars: 100 });
  const S = 'ses_retentiontimer1';
  const TERM = 'term_timerterminal1';
  addSession(db, log, S, 'open', NOW);
  log.append({ sessionId: S, kind: EventKind.terminalOpened, subject: TERM, payload: terminal(TERM, S) });
  const more = (n: number) => {
    for (let i = 0; i < n; i++) log.append({ sessionId: S, kind: EventKind.terminalOutput, subject: TERM, data: 'y'.repeat(100) });
    log.settle();
  };
  more(20);
  const retention = new EventLogRetention(db, log, { outputBytesPerSession: 0, replayTailChars: 100, startupDelayMs: 1, intervalMs: 10, now: () => NOW });
  t.after(() => {
    retention.dispose();
    log.dispose();
  });
  retention.start();
  await waitFor(() => bytesOfOutput(db, S) === 100, 'the first run after start');
  more(20);
  await waitFor(() => bytesOfOutput(db, S) === 100, 'a later run');
});
