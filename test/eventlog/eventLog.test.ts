import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Terminal } from '../../src-preload/contract';
import { closeLostTerminals } from '../../src-main/node/eventlog/closeLostTerminals';
import { EventKind } from '../../src-main/node/eventlog/eventKinds';
import { EventLog, EventLogClosedError } from '../../src-main/node/eventlog/eventLog';
import { ReplayError } from '../../src-main/node/eventlog/replayError';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import { readSessionEvents } from '../../src-main/node/eventlog/storedEvents';
import { openDatabase, openDatabaseReadOnly, type Database } from '../../src-main/node/store/database';
import { migrations } from '../../src-main/node/store/migrations';
import { Scrollback } from '../../src-main/node/terminals/scrollback';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { tempDir, waitFor } from '../helpers';

const SES = 'ses_eventlogtest01';
const T1 = 'term_terminal0001';
const T2 = 'term_terminal0002';

function freshDb(t: { after(fn: () => void): void }): { db: Database; file: string } {
  const dir = tempDir('eventlog');
  const file = join(dir.path, 'sessions.db');
  const db = openDatabase(file);
  t.after(() => {
    if (db.open) db.close();
    dir.cleanup();
  });
  return { db, file };
}

const session = (id = SES, name = 'work') => ({ id, name, workspace: '/tmp/w', status: 'open' as const, createdAt: 1, updatedAt: 1 });
const terminal = (id: string, sessionId = SES): Terminal => ({
  id,
  sessionId,
  title: 'bash',
  cwd: '/tmp/w',
  pid: 4242,
  cols: 80,
  rows: 24,
  status: 'running',
  exitCode: null,
  createdAt: 2,
});

/** A seeded pseudo-random generator, so a failing case can be rerun as it was. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('the scrollback holds exactly the last N characters, however the output was chunked and whenever it was read', () => {
  const next = random(7);
  const alphabet = 'abcdefgh \r\n\u00e9\u4e2d';
  for (let round = 0; round < 200; round++) {
    const limit = 1 + Math.floor(next() * 300);
    const scrollback = new Scrollback(limit);
    let all = '';
    const chunks = Math.floor(next() * 40);
    for (let i = 0; i < chunks; i++) {
      let chunk = '';
      const size = Math.floor(next() * next() * 400);
      for (let j = 0; j < size; j++) chunk += alphabet[Math.floor(next() * alphabet.length)];
      scrollback.append(chunk);
      all += chunk;
      if (next() < 0.3) assert.equal(scrollback.snapshot(), all.slice(-limit), `round ${round}, after chunk ${i}`);
    }
    assert.equal(scrollback.snapshot(), all.slice(-limit), `round ${round}`);
  }
});

test('seqs count 1, 2, 3… per session; adjacent output of one terminal shares a row; state changes are written at once', (t) => {
  const { db, file } = freshDb(t);
  const log = new EventLog(db, { flushDelayMs: 60_000 });
  const reader = openDatabaseReadOnly(file);
  t.after(() => reader.close());

  assert.equal(log.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() }, { durable: true }), 1);
  assert.equal(readSessionEvents(reader, SES).length, 1, 'a durable event is on disk before append returns');
  log.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T1, payload: terminal(T1) });
  assert.equal(log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'ab' }), 3);
  assert.equal(log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'cd' }), 3, 'joins the row before it');
  log.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T2, payload: terminal(T2) });
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T2, data: 'x' });
  assert.equal(log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'ef' }), 6, 'another terminal came between');
  log.append({ sessionId: SES, kind: EventKind.terminalResized, subject: T1, payload: { cols: 100, rows: 30 } });
  assert.equal(log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'gh' }), 8, 'a state change came between');
  assert.equal(log.append({ sessionId: 'ses_othersession1', kind: EventKind.sessionCreated, payload: session('ses_othersession1') }), 1);
  assert.equal(readSessionEvents(reader, SES).length, 1, 'output waits in memory for its batch');
  assert.equal(log.head(SES), 8);

  log.dispose();
  assert.throws(() => log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'late' }), EventLogClosedError);
  const stored = readSessionEvents(reader, SES);
  assert.deepEqual(
    stored.map((e) => [e.seq, e.kind, e.data ?? e.payload]),
    [
      [1, 'session.created', session()],
      [2, 'terminal.opened', terminal(T1)],
      [3, 'terminal.output', 'abcd'],
      [4, 'terminal.opened', terminal(T2)],
      [5, 'terminal.output', 'x'],
      [6, 'terminal.output', 'ef'],
      [7, 'terminal.resized', { cols: 100, rows: 30 }],
      [8, 'terminal.output', 'gh'],
    ],
  );

  // A new log on the same database carries on where the old one stopped.
  const again = new EventLog(db);
  assert.equal(again.append({ sessionId: SES, kind: EventKind.terminalExited, subject: T1, payload: { exitCode: 3, signal: null } }), 9);
  const state = replaySession(SES, again.events(SES));
  again.dispose();
  assert.deepEqual(state, {
    session: session(),
    terminals: [
      { terminal: { ...terminal(T1), cols: 100, rows: 30, status: 'exited', exitCode: 3 }, signal: null, scrollback: 'abcdefgh' },
      { terminal: terminal(T2), signal: null, scrollback: 'x' },
    ],
  });
});

test('cut() ends the growing row: replaying through its seq gives the state at that moment, not later output', (t) => {
  const { db } = freshDb(t);
  const log = new EventLog(db, { flushDelayMs: 60_000 });
  log.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() });
  log.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T1, payload: terminal(T1) });
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'before ' });
  const seq = log.cut(SES);
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'after' });
  assert.equal(replaySession(SES, log.events(SES, { throughSeq: seq })).terminals[0].scrollback, 'before ');
  assert.equal(replaySession(SES, log.events(SES)).terminals[0].scrollback, 'before after');
  log.dispose();
});

test('output is stored as the scrubber leaves it, so secrets in a terminal never reach the disk', (t) => {
  const { db, file } = freshDb(t);
  const secrets = new SecretRegistry();
  secrets.register(new Secret('hunter2-correct-horse'));
  const log = new EventLog(db, { secrets });
  log.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() });
  log.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T1, payload: terminal(T1) });
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'the key: hunter2-corr' });
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'ect-horse, a token: ghp_' + 'a1B2'.repeat(9) + '\r\n' });
  log.dispose();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const reader = openDatabaseReadOnly(file);
  t.after(() => reader.close());
  assert.equal(
    replaySession(SES, readSessionEvents(reader, SES)).terminals[0].scrollback,
    'the key: [REDACTED:registered], a token: [REDACTED:github-token]\r\n',
  );
  assert.equal(readFileSync(file).includes('hunter2'), false);
  assert.equal(readFileSync(file).includes('a1B2a1B2'), false);
});

test('replay refuses a log with a gap, a foreign event, an unknown kind or a malformed payload, naming the event', (t) => {
  const { db } = freshDb(t);
  const log = new EventLog(db);
  log.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() });
  log.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T1, payload: terminal(T1) });
  log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: T1, data: 'hi' });
  log.append({ sessionId: SES, kind: EventKind.terminalResized, subject: T1, payload: { cols: 90, rows: 20 } });
  const events = log.events(SES);
  log.dispose();

  const expectReplayError = (list: typeof events, message: RegExp) =>
    assert.throws(() => replaySession(SES, list), (error: unknown) => error instanceof ReplayError && message.test(error.message));
  expectReplayError([events[0], events[1], events[3]], /at event 4: events 3\.\.3 are missing/);
  expectReplayError([events[0], { ...events[1], sessionId: 'ses_someoneelse1' }], /at event 2: it belongs to session ses_someoneelse1/);
  expectReplayError([events[0], { ...events[1], kind: 'agent.spawned' }], /at event 2: unknown event kind "agent\.spawned"/);
  expectReplayError([events[0], events[1], events[2], { ...events[3], payload: { cols: 'wide' } }], /at event 4: its terminal\.resized payload is malformed: cols/);
  expectReplayError([events[0], { ...events[1], kind: EventKind.terminalOutput, data: 'x', payload: null }], /at event 2: terminal\.output names terminal term_terminal0001, which is not open/);
  expectReplayError([], /it has no events/);
  // A retention marker accounts for the seqs it replaced.
  const marker = { ...events[1], kind: EventKind.dropped, subject: null, payload: { through: 3, events: 2, bytes: 2, reason: 'output-budget' } };
  expectReplayError([events[0], marker, events[3]], /terminal\.resized names terminal term_terminal0001, which is not open/);
  assert.deepEqual(replaySession(SES, [events[0], marker]).terminals, []);
});

test('terminals a crashed host left open are closed in the log at the next start', (t) => {
  const { db, file } = freshDb(t);
  const crashed = new EventLog(db);
  crashed.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() });
  crashed.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T1, payload: terminal(T1) });
  crashed.append({ sessionId: SES, kind: EventKind.terminalOpened, subject: T2, payload: terminal(T2) });
  crashed.append({ sessionId: SES, kind: EventKind.terminalClosed, subject: T2, payload: { reason: 'closed' } });
  crashed.settle(); // all written, and then the process died: no dispose, no terminal.closed for T1
  db.close();

  const restarted = openDatabase(file);
  t.after(() => restarted.close());
  const log = new EventLog(restarted);
  assert.equal(replaySession(SES, log.events(SES)).terminals.length, 1);
  assert.equal(closeLostTerminals(restarted, log), 1);
  assert.equal(closeLostTerminals(restarted, log), 0, 'only once');
  const events = log.events(SES);
  assert.deepEqual(events.at(-1)?.payload, { reason: 'host-lost' });
  assert.deepEqual(replaySession(SES, events).terminals, []);
  log.dispose();
});

test('sessions from before the event log get their record as their first event when the database is upgraded', (t) => {
  const dir = tempDir('eventlog');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  const old = openDatabase(file, migrations.filter((m) => m.version < 4));
  old.prepare("INSERT INTO sessions (id, name, workspace, status, created_at, updated_at) VALUES (?, 'old one', '/srv/old', 'closed', 10, 20)").run(SES);
  old.close();
  const db = openDatabase(file);
  t.after(() => db.close());
  const log = new EventLog(db);
  assert.deepEqual(replaySession(SES, log.events(SES)), {
    session: { id: SES, name: 'old one', workspace: '/srv/old', status: 'closed', createdAt: 10, updatedAt: 20 },
    terminals: [],
  });
  assert.equal(log.append({ sessionId: SES, kind: EventKind.sessionUpdated, payload: { ...session(), status: 'open' } }), 2);
  log.dispose();
});

test('a batch the database refuses is reported with the reason, not lost in silence', async (t) => {
  const { db } = freshDb(t);
  const reports: { message: string; events: number }[] = [];
  const first = new EventLog(db);
  // Two writers on one session (a bug this guards against): neither knows the other's events, both take seq 1.
  const second = new EventLog(db, { onWriteError: (error, events) => reports.push({ message: error.message, events }) });
  second.append({ sessionId: SES, kind: EventKind.sessionUpdated, payload: session(SES, 'clash') });
  first.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session() }, { durable: true });
  second.settle();
  await waitFor(() => reports.length > 0, 'the failure report');
  assert.deepEqual(reports, [{ message: 'UNIQUE constraint failed: event_log.session_id, event_log.seq', events: 1 }]);
  assert.equal(replaySession(SES, first.events(SES)).session.name, 'work');
  first.dispose();
  second.dispose();
});
