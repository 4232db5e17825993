import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { EventKind } from '../../src-main/node/eventlog/eventKinds';
import { EventLog } from '../../src-main/node/eventlog/eventLog';
import { WRITER_NICE_STEPS } from '../../src-main/node/eventlog/eventLogWriterWorker';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import { readSessionEvents } from '../../src-main/node/eventlog/storedEvents';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';

const SES = 'ses_backlogtest01';
const TERM = 'term_backlogterm01';

/** The nice value of each thread of this process (Linux). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Field 19 is the nice value; fields are counted after the command name, which may contain spaces.
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // The thread ended meanwhile.
    }
  });
}

/**
 * Where the WAL stands, from the wal-index header in `<db>-shm` (read without a connection, which could checkpoint):
 * `frames` in the WAL since it last started over, `backfilled` of them copied into the database file.
 */
function walState(dbFile: string): { frames: number; backfilled: number } {
  const header = readFileSync(`${dbFile}-shm`).subarray(0, 136);
  return { frames: header.readUInt32LE(16), backfilled: header.readUInt32LE(96) };
}

/** Appends `megabytes` of terminal output in 64 KB chunks, the event loop turning between them. */
async function flood(log: EventLog, megabytes: number): Promise<void> {
  for (let i = 0; i < megabytes * 16; i++) {
    log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: TERM, data: `${i} ${'z'.repeat(65_000)}\n` });
    await yieldToLoop();
  }
}

function openLog(t: { after(fn: () => void): void }, maxWriterBacklogChars?: number, walCheckpointBytes?: number) {
  const dir = tempDir('eventlog-backlog');
  const file = join(dir.path, 'sessions.db');
  const db = openDatabase(file);
  const log = new EventLog(db, { flushChars: 64 * 1024, maxWriterBacklogChars, walCheckpointBytes });
  t.after(() => {
    log.dispose();
    db.close();
    dir.cleanup();
  });
  log.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: { id: SES, name: 'flood', workspace: '/w', status: 'open', createdAt: 1, updatedAt: 1 } });
  log.append({
    sessionId: SES,
    kind: EventKind.terminalOpened,
    subject: TERM,
    payload: { id: TERM, sessionId: SES, title: 'sh', cwd: '/w', pid: 1, cols: 80, rows: 24, status: 'running', exitCode: null, createdAt: 1 },
  });
  return { db, log, file };
}

test('the event log writer thread runs at a lower priority than the host thread', { skip: process.platform !== 'linux' && 'thread priorities are Linux-only' }, async (t) => {
  const before = threadNiceValues().filter((nice) => nice > getPriority()).length;
  openLog(t);
  const expected = Math.min(19, getPriority() + WRITER_NICE_STEPS);
  await waitFor(() => threadNiceValues().filter((nice) => nice === expected).length > before, `a thread ${WRITER_NICE_STEPS} nice levels kinder than this one (the writer)`);
});

test('a flood never leaves the writer more than its backlog bound behind, and every character of it is stored', async (t) => {
  const bound = 256 * 1024;
  const { db, log } = openLog(t, bound);
  let expected = '';
  let highest = 0;
  // 16 MB in bursts, with the event loop turning between them as a pty's reads would let it.
  for (let burst = 0; burst < 400; burst++) {
    for (let i = 0; i < 10; i++) {
      const chunk = `${burst}.${i} ${'y'.repeat(4000)}\n`;
      expected += chunk;
      log.append({ sessionId: SES, kind: EventKind.terminalOutput, subject: TERM, data: chunk });
    }
    highest = Math.max(highest, log.writerBacklogChars);
    await yieldToLoop();
  }
  assert.ok(highest <= bound, `the writer was ${highest} characters behind, more than the bound of ${bound}`);
  log.settle();
  assert.equal(log.writerBacklogChars, 0);
  const state = replaySession(SES, readSessionEvents(db, SES), { scrollbackChars: 1 << 30 });
  assert.equal(state.terminals[0].scrollback.length, expected.length);
  assert.ok(state.terminals[0].scrollback === expected, 'the stored output is the flood, character for character');
});

test('the writer checkpoints the WAL once a flood pauses, not every few MB during it', async (t) => {
  const { log, file } = openLog(t);
  await flood(log, 12);
  log.settle();
  // SQLite by itself checkpoints every 1000 pages (4 MB), after which the WAL starts over: it would hold at most
  // ~1000 of the flood's ~3000 pages.
  const stored = await waitFor(() => {
    const wal = walState(file);
    return wal.frames > 0 && wal.backfilled === wal.frames ? wal : null;
  }, 'the WAL checkpointed in the pause after the flood');
  assert.ok(stored.frames >= 3000, `the WAL started over during the flood: ${stored.frames} pages in it, 12 MB is ~3000`);
});

test('a long flood still checkpoints every walCheckpointBytes', async (t) => {
  const { log, file } = openLog(t, undefined, 2 * 1024 * 1024);
  await flood(log, 12);
  log.settle();
  const wal = walState(file);
  // 2 MB is ~500 pages; the WAL starts over after each checkpoint, so it never holds much more than that.
  assert.ok(wal.frames < 1000, `${wal.frames} pages in the WAL after a 12 MB flood with a checkpoint every 2 MB`);
});
