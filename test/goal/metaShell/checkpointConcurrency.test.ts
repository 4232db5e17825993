import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckpointStore, parseCheckpointSignal, type ResumeOutcome } from '../../../src-main/node/goal/metaShell';
import { openDatabase, type Database } from '../../../src-main/node/store/database';
import { tempDir } from '../../helpers';
import { bundleFixture } from './fixtures/bundle';
import { startChild } from './fixtures/children';
import { CountingTool } from './fixtures/countingTool';

const PROCESSES = 5;
const CALLS_EACH = 10;
const SESSION = 'ses-concurrent';
const RESUME_ID = 'step_2_auth_decision';

describe('checkpoint answers: 50 at once, from several processes, to one resume_id', () => {
  const dir = tempDir('checkpoint-concurrent');
  const dbFile = join(dir.path, 'sessions.db');
  const counterFile = join(dir.path, 'counter.db');
  let script: string;
  let db: Database;
  before(async () => {
    script = await bundleFixture('checkpointHost', dir.path);
    db = openDatabase(dbFile);
  });
  after(() => {
    db.close();
    dir.cleanup();
  });

  it('one answer is stored, the resume runs once, and all 50 callers get the same outcome', async () => {
    const store = new CheckpointStore(db);
    store.raise(SESSION, parseCheckpointSignal({ type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: RESUME_ID }));
    const goFile = join(dir.path, 'go');
    const children = Array.from({ length: PROCESSES }, () => startChild(script, ['concurrent', dbFile, counterFile, SESSION, RESUME_ID, String(CALLS_EACH), goFile]));
    // All processes are up and waiting before any answers: the 50 calls race for real.
    await Promise.all(children.map((c) => c.line(/^ready$/)));
    writeFileSync(goFile, '');
    const reports = await Promise.all(children.map(async (c) => JSON.parse(await c.line(/^\{/)) as { accepted: number; outcomes: ResumeOutcome[] }));
    await Promise.all(children.map((c) => c.exited));

    const outcomes = reports.flatMap((r) => r.outcomes);
    assert.equal(outcomes.length, PROCESSES * CALLS_EACH);
    assert.equal(reports.reduce((n, r) => n + r.accepted, 0), 1, 'exactly one answer was accepted; the other 49 got the stored one back');
    const stored = store.get({ sessionId: SESSION, resumeId: RESUME_ID })!;
    for (const outcome of outcomes) assert.deepEqual(outcome, { ok: true, value: { count: 1, answer: stored.answer } }, 'every caller got the same outcome');
    const tool = new CountingTool(counterFile);
    assert.equal(tool.calls(RESUME_ID), 1, 'the resume (and its tool) ran once, not once per caller');
    assert.equal(tool.counter(RESUME_ID), 1);
    tool.close();
    assert.equal(stored.attempts, 1);
    assert.equal(stored.status, 'resumed');
  });
});
