import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MetaState, parseSessionState, SessionStateCorruptError, SessionStateInvalidError, SessionStateMissingError, StateKeyError } from '../../../src-main/node/goal/metaShell';
import { tempDir } from '../../helpers';
import { SPEC_EXAMPLE } from './specExample';

const invalidField = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SessionStateInvalidError, String(error));
    return `${error.field}: ${error.message}`;
  }
  assert.fail('expected SessionStateInvalidError');
};

describe('SessionState: the schema of .meta/session.json', () => {
  it("accepts the spec's example with every field", () => {
    assert.deepEqual(parseSessionState(JSON.parse(JSON.stringify(SPEC_EXAMPLE)), 'spec'), SPEC_EXAMPLE);
  });

  it('names the bad field: wrong enum, missing, misspelt, wrong type, nested in a task', () => {
    const bad = (patch: (s: Record<string, unknown>) => void) => {
      const state = structuredClone(SPEC_EXAMPLE) as unknown as Record<string, unknown>;
      patch(state);
      return invalidField(() => parseSessionState(state, 'session.json'));
    };
    assert.match(bad((s) => (s.status = 'running')), /^status: session\.json: field "status" Invalid option: expected one of "planning"\|"executing"\|"verifying"\|"halted"/);
    assert.match(bad((s) => delete s.gapCount), /^gapCount: .*field "gapCount" is missing \(expected number\)/);
    assert.match(bad((s) => (s.sesionId = 'x')), /^sesionId: .*unknown field \(check the spelling\)/);
    assert.match(bad((s) => (s.currentPhase = 1.5)), /^currentPhase: /);
    assert.match(bad((s) => ((s.plan as { tasks: { status: string }[] }).tasks[1].status = 'done')), /^plan\.tasks\.1\.status: /);
    assert.match(bad((s) => ((s.plan as { tasks: { commits: string[] }[] }).tasks[0].commits = ['not a sha'])), /^plan\.tasks\.0\.commits\.0: .*git commit id/);
    assert.match(bad((s) => ((s.plan as { tasks: { dependencies: string[] }[] }).tasks[2].dependencies = ['99'])), /^plan\.tasks\.2\.dependencies\.0: .*"99", which is not in the plan/);
    assert.match(bad((s) => ((s.plan as { tasks: { dependencies: string[] }[] }).tasks[0].dependencies = ['03'])), /^plan\.tasks\.0\.dependencies: .*cycle: 01 → 03 → 02 → 01/);
    assert.match(bad((s) => ((s.plan as { currentTaskIdx: number }).currentTaskIdx = 7)), /^plan\.currentTaskIdx: .*past the last task/);
  });
});

describe('MetaState: reading and updating .meta/session.json', () => {
  let dir: ReturnType<typeof tempDir>;
  let meta: MetaState;
  beforeEach(() => {
    dir = tempDir('meta-state');
    meta = new MetaState(dir.path);
  });
  afterEach(() => dir.cleanup());

  it('initializes once, then update_state sets dot paths and writes the whole state atomically', async () => {
    assert.equal(await meta.read(), null);
    await meta.initialize(SPEC_EXAMPLE);
    assert.deepEqual(await meta.initialize({ sessionId: 'other' }), SPEC_EXAMPLE, 'an existing state is kept');
    await meta.updateState('plan.tasks.1.status', 'complete');
    await meta.updateState('plan.tasks.1.commits', ['0123abc']);
    await meta.updateState('plan.currentTaskIdx', 2);
    await meta.updateState('variables.notes', { auth: 'Auth0' });
    const state = await meta.updateState('status', 'verifying');
    assert.equal(state.plan!.tasks[1].status, 'complete');
    const onDisk = JSON.parse(readFileSync(meta.paths.session, 'utf8')) as unknown;
    assert.deepEqual(onDisk, state);
    assert.deepEqual(state.variables.notes, { auth: 'Auth0' });
    assert.deepEqual(readdirSync(meta.paths.dir).sort(), ['session.json'], 'no temporary file or lock is left behind');
  });

  it('refuses an update that breaks the schema, naming the field, and writes nothing', async () => {
    await meta.initialize(SPEC_EXAMPLE);
    const before = readFileSync(meta.paths.session, 'utf8');
    await assert.rejects(meta.updateState('plan.tasks.0.status', 'finished'), (e: Error) => e instanceof SessionStateInvalidError && e.field === 'plan.tasks.0.status' && /update_state\("plan\.tasks\.0\.status"\)/.test(e.message));
    await assert.rejects(meta.updateState('gapCount', -1), (e: Error) => e instanceof SessionStateInvalidError && e.field === 'gapCount');
    await assert.rejects(meta.updateState('statsu', 'halted'), (e: Error) => e instanceof SessionStateInvalidError && e.field === 'statsu');
    await assert.rejects(meta.updateState('plan.tasks.9.status', 'failed'), (e: Error) => e instanceof StateKeyError && /plan\.tasks\.9" does not exist \(the list has 3 items\)/.test(e.message));
    await assert.rejects(meta.updateState('variables.__proto__.x', 1), StateKeyError);
    await assert.rejects(meta.updateState('variables.when', new Date()), (e: Error) => e instanceof StateKeyError && /plain JSON, not Date/.test(e.message));
    assert.equal(readFileSync(meta.paths.session, 'utf8'), before);
  });

  it('update_state before the session has a state says so', async () => {
    await assert.rejects(meta.updateState('status', 'halted'), SessionStateMissingError);
  });

  it('a corrupt session.json is moved aside, never replaced, and the user is told where it is', async () => {
    mkdirSync(meta.paths.dir, { recursive: true });
    writeFileSync(meta.paths.session, '{"sessionId": "550e84');
    let error: unknown;
    await meta.updateState('status', 'halted').catch((e) => (error = e));
    assert.ok(error instanceof SessionStateCorruptError, String(error));
    assert.match(error.keptAt, /session\.json\.corrupt-\d{4}-\d\d-\d\dT/);
    assert.equal(readFileSync(error.keptAt, 'utf8'), '{"sessionId": "550e84', 'the damaged bytes are kept, untouched');
    assert.match(error.message, /is not valid JSON .* kept aside as .*session\.json\.corrupt-/);
    assert.equal(existsSync(meta.paths.session), false, 'nothing was written in its place');
    assert.equal(await meta.read(), null);
    await meta.initialize({ sessionId: 'fresh' });
    assert.ok(existsSync(error.keptAt), 'starting again leaves the kept copy alone');
  });

  it('a session.json edited into an invalid state is left in place and reported with the field', async () => {
    await meta.initialize(SPEC_EXAMPLE);
    const edited = readFileSync(meta.paths.session, 'utf8').replace('"executing"', '"exec"');
    writeFileSync(meta.paths.session, edited);
    await assert.rejects(meta.read(), (e: Error) => e instanceof SessionStateInvalidError && e.field === 'status' && e.message.startsWith(meta.paths.session));
    await assert.rejects(meta.updateState('gapCount', 1), SessionStateInvalidError);
    assert.equal(readFileSync(meta.paths.session, 'utf8'), edited, 'the user can fix that one field');
  });
});
