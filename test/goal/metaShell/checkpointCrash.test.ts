import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckpointResumer, CheckpointStore, parseCheckpointSignal, type CheckpointStatus } from '../../../src-main/node/goal/metaShell';
import { openDatabase, type Database } from '../../../src-main/node/store/database';
import { tempDir } from '../../helpers';
import { stressScale } from '../../stressScale';
import { bundleFixture } from './fixtures/bundle';
import { KILL_POINTS, countingResume, type KillPoint } from './fixtures/checkpointHost';
import { startChild } from './fixtures/children';
import { CountingTool } from './fixtures/countingTool';

// Each kill point is hit deterministically; the repeats are for races around it: 20 under `npm run test:stress`,
// 5 in `npm test` (the 200 host processes of the full count cost ~36 s of CPU per run).
const RUNS_PER_POINT = stressScale(20, 5);
const PARALLEL = 4;
const SESSION = 'ses-crash';

/** Where each kill point leaves the journal, and how often the tool has been entered by then. */
const EXPECTED_AT_KILL: Record<KillPoint, { status: CheckpointStatus; counter: number; calls: number }> = {
  answer_stored: { status: 'answered', counter: 0, calls: 0 },
  resume_claimed: { status: 'resuming', counter: 0, calls: 0 },
  resume_started: { status: 'resuming', counter: 0, calls: 0 },
  // The effect's transaction was open when the process died: SQLite rolls it back.
  effect_in_flight: { status: 'resuming', counter: 0, calls: 1 },
  effect_done_unjournaled: { status: 'resuming', counter: 1, calls: 1 },
};

/**
 * A counting, non-idempotent tool behind a checkpoint: the host process answering and resuming it is SIGKILLed at
 * one of five points between "answer stored" and "side effect done, not yet journaled"; a restarted host then
 * finishes what was interrupted. The effect must have happened exactly once, every time.
 *
 * What makes the last point exactly-once is not the journal (it cannot know the effect happened: the process died
 * before writing that down) but the idempotency key the resume passes to the tool, which the tool records in the same
 * transaction as its effect (fixtures/countingTool.ts). The re-run after the restart enters the tool a second time
 * (calls = 2) and changes nothing (counter = 1). Every earlier point is exactly-once through the journal alone.
 */
describe('checkpoint resume: exactly once across SIGKILLs of the host', () => {
  const dir = tempDir('checkpoint-crash');
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

  it(`${KILL_POINTS.length} kill points × ${RUNS_PER_POINT} runs: the effect ran exactly once in each, every caller saw the same outcome`, async () => {
    const store = new CheckpointStore(db);
    const runs = KILL_POINTS.flatMap((point) => Array.from({ length: RUNS_PER_POINT }, (_, i) => ({ point, resumeId: `auth_${point}_${i}` })));
    for (const { resumeId } of runs) {
      store.raise(SESSION, parseCheckpointSignal({ type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: resumeId }), 'executor');
    }

    const started = performance.now();
    const queue = [...runs];
    const killed = async () => {
      for (let run = queue.shift(); run; run = queue.shift()) {
        const child = startChild(script, ['crash', dbFile, counterFile, SESSION, run.resumeId], { KILL_AT: run.point });
        const exit = await child.exited;
        assert.equal(exit.signal, 'SIGKILL', `the host killed itself at ${run.point}: ${child.stderr()}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, killed));
    const killSeconds = (performance.now() - started) / 1000;

    // Before the restart: each kill left the journal and the tool exactly where its point says.
    const tool = new CountingTool(counterFile);
    for (const { point, resumeId } of runs) {
      const record = store.get({ sessionId: SESSION, resumeId })!;
      const expected = EXPECTED_AT_KILL[point];
      assert.equal(record.status, expected.status, `${resumeId}: journal after a kill at ${point}`);
      assert.equal(record.answer, 'Auth0', `${resumeId}: the answer was stored before the kill`);
      assert.equal(tool.counter(resumeId), expected.counter, `${resumeId}: effect before the restart`);
      assert.equal(tool.calls(resumeId), expected.calls, `${resumeId}: tool entered before the restart`);
    }

    // The restarted host: finishes every interrupted resume (claimants are dead, so their claims are taken over).
    const restarted = new CheckpointResumer(new CheckpointStore(db));
    const outcomes = await restarted.resumeUnfinished(() => countingResume(tool));
    assert.equal(outcomes.size, runs.length, 'every interrupted resume was found after the restart');

    let exactlyOnce = 0;
    for (const { point, resumeId } of runs) {
      assert.equal(tool.counter(resumeId), 1, `${resumeId} (killed at ${point}): the effect happened exactly once`);
      const record = store.get({ sessionId: SESSION, resumeId })!;
      assert.equal(record.status, 'resumed');
      assert.deepEqual(record.outcome, { ok: true, value: { count: 1, answer: 'Auth0' } });
      // Any later caller (a second click after the restart) gets the stored outcome and runs nothing.
      assert.deepEqual(await restarted.resumeOnce({ sessionId: SESSION, resumeId }, () => assert.fail('ran a finished resume again')), record.outcome);
      const reentered = point === 'effect_in_flight' || point === 'effect_done_unjournaled';
      assert.equal(tool.calls(resumeId), reentered ? 2 : 1, `${resumeId}: the tool was entered again only after a kill inside it`);
      exactlyOnce++;
    }
    assert.equal(exactlyOnce, KILL_POINTS.length * RUNS_PER_POINT);
    tool.close();
    console.log(`# exactly once in ${exactlyOnce}/${runs.length} runs (${RUNS_PER_POINT} per kill point); ${runs.length} hosts killed in ${killSeconds.toFixed(1)} s`);
  });
});
