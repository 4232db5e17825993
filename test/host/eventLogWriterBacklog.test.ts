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

function openLog(t: { after(fn: () => void): void }, maxWriterBacklogChars?: number) {
  const dir = tempDir('eventlog-backlog');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  const log = new EventLog(db, { flushChars: 64 * 1024, maxWriterBacklogChars });
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
  return { db, log };
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
