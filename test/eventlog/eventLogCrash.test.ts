import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import { readSessionEvents } from '../../src-main/node/eventlog/storedEvents';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

const CHUNK = (i: number) => `${i}\n${'x'.repeat(200)}\n`;

test('kill -9 during a flood of output: the log replays, holds a gapless prefix, and keeps every durable change', async (t) => {
  const dir = tempDir('eventlog-crash');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  for (let round = 0; round < 3; round++) {
    const sessionId = `ses_crashround000${round}`;
    const terminalId = `term_crashround00${round}`;
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'eventLogBurst.ts'), file, sessionId, terminalId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const last = await new Promise<{ renames: number; chunks: number }>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (data: Buffer) => {
        buffered += data;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const match = /^renamed (\d+) after (\d+)$/.exec(line);
          // Killed at a different point each round, while output keeps pouring in.
          if (match && Number(match[1]) === 1 + round) {
            // A little later, so batches are on their way to the writer thread when it dies.
            setTimeout(() => child.kill('SIGKILL'), 30 + 70 * round);
            resolve({ renames: Number(match[1]), chunks: Number(match[2]) });
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`the flood writer exited by itself (${code}): ${stderr}`));
      });
    });
    await new Promise((resolve) => child.once('close', resolve));
    assert.equal(child.signalCode, 'SIGKILL');
    assert.equal(stderr, '', 'the writer reported no problem (it ran on its worker thread)');

    const db = openDatabase(file);
    const events = readSessionEvents(db, sessionId);
    db.close();
    // Replay checks the seqs are gapless; a scrollback big enough to hold everything shows what survived.
    const state = replaySession(sessionId, events, { scrollbackChars: 1 << 30 });
    const survived = state.terminals[0].scrollback;
    let expected = '';
    let count = 0;
    while (expected.length < survived.length) expected += CHUNK(count++);
    assert.equal(survived, expected, `round ${round}: what survived is exactly chunks 0..${count - 1}, in order`);
    assert.ok(count >= last.chunks, `round ${round}: ${count} chunks survived, but ${last.chunks} were committed before a reported rename`);
    assert.ok(Number(state.session.name.replace('rename ', '')) >= last.renames, `round ${round}: rename ${last.renames} was reported committed`);
  }
});
