import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { storedEntries } from '../../src-main/node/ledger/storedEntries';
import { verifyChain } from '../../src-main/node/ledger/verifyChain';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

test('kill -9 during a burst of appends: the chain verifies and holds everything reported committed', async (t) => {
  const dir = tempDir('crash');
  t.after(dir.cleanup);
  const file = join(dir.path, 'sessions.db');
  for (let round = 0; round < 3; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'ledgerBurst.ts'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const lastReport = await new Promise<{ appended: number; committed: number }>((resolve, reject) => {
      let buffered = '';
      let last = { appended: 0, committed: 0 };
      let reports = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const match = /^appended (\d+) committed (\d+)$/.exec(line);
          if (!match) continue;
          last = { appended: Number(match[1]), committed: Number(match[2]) };
          // Kill at a varying point, in the middle of the stream of bursts.
          if (++reports === 20 + round * 7) {
            child.kill('SIGKILL');
            resolve(last);
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`the burst writer exited by itself (${code}): ${stderr}`));
      });
    });
    await new Promise((resolve) => child.once('close', resolve));
    const db = openDatabase(file);
    const verdict = verifyChain(storedEntries(db));
    db.close();
    assert.ok(verdict.intact, `round ${round}: ${JSON.stringify(verdict)}`);
    assert.ok(verdict.size >= lastReport.committed, `round ${round}: ${verdict.size} entries, but ${lastReport.committed} were reported committed`);
    // What may be lost is bounded: at most the bursts appended after the last report (the pipe may lag a little).
    assert.ok(verdict.size <= lastReport.appended + 300 * 50, `round ${round}: more entries than were appended`);
  }
});
