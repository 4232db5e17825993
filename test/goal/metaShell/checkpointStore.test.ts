import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  CheckpointAnswerError,
  CheckpointConflictError,
  CheckpointNotAnsweredError,
  CheckpointResumer,
  CheckpointSignalError,
  CheckpointStore,
  parseCheckpointSignal,
} from '../../../src-main/node/goal/metaShell';
import { Ledger } from '../../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../../src-main/node/store/database';
import { tempDir } from '../../helpers';

const SIGNAL = { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' };
const REF = { sessionId: 'ses-1', resumeId: 'step_2_auth_decision' };

const signalField = (data: unknown): string => {
  try {
    parseCheckpointSignal(data);
  } catch (error) {
    assert.ok(error instanceof CheckpointSignalError, String(error));
    return `${error.field}: ${error.message}`;
  }
  assert.fail('expected CheckpointSignalError');
};

describe('checkpoint signal: the schema of a checkpoint response', () => {
  it("accepts the spec's example, from AgentResponse.data as a string", () => {
    assert.deepEqual(parseCheckpointSignal(JSON.stringify(SIGNAL)), SIGNAL);
    assert.equal(parseCheckpointSignal({ ...SIGNAL, reason: 'human_action', options: [] }).reason, 'human_action');
  });

  it('names the bad field', () => {
    assert.match(signalField('Which auth provider?'), /^\(root\): checkpoint signal: field "\(root\)" is not JSON/);
    assert.match(signalField({ ...SIGNAL, type: 'answer' }), /^type: /);
    assert.match(signalField({ ...SIGNAL, reason: 'decision' }), /^reason: .*"decision_required"\|"human_action"/);
    assert.match(signalField({ ...SIGNAL, message: '  ' }), /^message: .*must say what the user is asked/);
    assert.match(signalField({ ...SIGNAL, options: [] }), /^options: .*at least one option for a decision_required/);
    assert.match(signalField({ ...SIGNAL, options: ['Auth0', 'Auth0'] }), /^options\.1: .*repeats "Auth0"/);
    assert.match(signalField({ ...SIGNAL, resume_id: undefined }), /^resume_id: .*is missing \(expected string\)/);
    assert.match(signalField({ ...SIGNAL, resume_id: 'step 2' }), /^resume_id: .*letters, digits/);
  });
});

describe('checkpoint store: durable, single-use, restart-proof', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let db: Database;
  let ledger: Ledger;
  let store: CheckpointStore;
  beforeEach(() => {
    dir = tempDir('checkpoint-store');
    file = join(dir.path, 'sessions.db');
    db = openDatabase(file);
    ledger = new Ledger(db);
    store = new CheckpointStore(db, { ledger, scrub: (answer) => (typeof answer === 'string' ? answer.replace(/sk-ant-\w+/g, '[REDACTED]') : answer) });
  });
  afterEach(() => {
    ledger.dispose();
    db.close();
    dir.cleanup();
  });

  it('pending checkpoints survive a host restart, and can be answered and resumed after it', async () => {
    store.raise('ses-1', parseCheckpointSignal(SIGNAL), 'executor');
    store.raise('ses-2', parseCheckpointSignal({ ...SIGNAL, reason: 'human_action', message: 'Create the OAuth app, then press Continue', options: ['Continue'], resume_id: 'oauth_app' }));
    ledger.dispose();
    db.close();

    db = openDatabase(file);
    ledger = new Ledger(db);
    store = new CheckpointStore(db, { ledger });
    assert.deepEqual(
      store.pending().map((c) => [c.sessionId, c.resumeId, c.reason, c.message, c.options, c.agentName]),
      [
        ['ses-1', 'step_2_auth_decision', 'decision_required', 'Which auth provider?', ['Auth0', 'Supabase'], 'executor'],
        ['ses-2', 'oauth_app', 'human_action', 'Create the OAuth app, then press Continue', ['Continue'], null],
      ],
    );
    assert.equal(store.pending('ses-2').length, 1);
    store.answer(REF, 'Supabase');
    const outcome = await new CheckpointResumer(store).resumeOnce(REF, async ({ answer }) => `User replied: ${answer as string}`);
    assert.deepEqual(outcome, { ok: true, value: 'User replied: Supabase' });
    assert.deepEqual(store.pending().map((c) => c.resumeId), ['oauth_app']);
  });

  it('the first answer is stored and ledgered; a second one changes nothing and gets the stored answer back', () => {
    store.raise('ses-1', parseCheckpointSignal(SIGNAL), 'executor');
    const first = store.answer(REF, 'Auth0');
    const second = store.answer(REF, 'Supabase', 'user');
    assert.equal(first.accepted, true);
    assert.equal(second.accepted, false);
    assert.equal(second.record.answer, 'Auth0');
    // Committed when answer() returned: another connection (another process) sees it at once.
    const other = openDatabase(file);
    assert.equal(JSON.parse(other.prepare<[], { answer: string }>('SELECT answer FROM host_checkpoints').get()!.answer).value, 'Auth0');
    other.close();
    ledger.flush();
    assert.deepEqual(
      ledger.list({ limit: 10 }).reverse().map((e) => [e.type, e.actor, e.sessionId, e.payload.resume_id]),
      [
        ['checkpoint.raised', 'agent:executor', 'ses-1', 'step_2_auth_decision'],
        ['checkpoint.answer', 'user', 'ses-1', 'step_2_auth_decision'],
      ],
    );
  });

  it('refuses answers that do not fit, unknown checkpoints, resuming before an answer, and a reused resume_id', async () => {
    store.raise('ses-1', parseCheckpointSignal(SIGNAL));
    assert.throws(() => store.answer(REF, 'Firebase'), (e: Error) => e instanceof CheckpointAnswerError && /"Firebase" is not one of its options: "Auth0", "Supabase"/.test(e.message));
    assert.throws(() => store.answer({ sessionId: 'ses-9', resumeId: REF.resumeId }, 'Auth0'), /no checkpoint "step_2_auth_decision" in session ses-9/);
    await assert.rejects(new CheckpointResumer(store).resumeOnce(REF, async () => 'x'), CheckpointNotAnsweredError);
    assert.deepEqual(store.raise('ses-1', parseCheckpointSignal(SIGNAL)).status, 'pending', 'raising the same question again is idempotent');
    assert.throws(() => store.raise('ses-1', parseCheckpointSignal({ ...SIGNAL, message: 'Which database?' })), CheckpointConflictError);
  });

  it('a human_action answer is free text, scrubbed of secrets before it is stored', () => {
    store.raise('ses-1', parseCheckpointSignal({ ...SIGNAL, reason: 'human_action', message: 'Paste the client id', options: [], resume_id: 'client_id' }));
    const { record } = store.answer({ sessionId: 'ses-1', resumeId: 'client_id' }, 'done, key sk-ant-abc123secret');
    assert.equal(record.answer, 'done, key [REDACTED]');
    assert.doesNotMatch(JSON.stringify(db.prepare('SELECT * FROM host_checkpoints').all()), /abc123secret/);
  });

  it('a resume that fails stores its error: a second caller gets the same error and nothing runs again', async () => {
    store.raise('ses-1', parseCheckpointSignal(SIGNAL));
    store.answer(REF, 'Auth0');
    const resumer = new CheckpointResumer(store);
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error('agent exited with status 2');
    };
    const [a, b] = await Promise.all([resumer.resumeOnce(REF, failing), resumer.resumeOnce(REF, failing)]);
    assert.deepEqual(a, { ok: false, error: 'agent exited with status 2' });
    assert.deepEqual(b, a);
    assert.equal(runs, 1);
  });

  it('the database refuses to move a checkpoint backwards or change a stored answer', () => {
    store.raise('ses-1', parseCheckpointSignal(SIGNAL));
    store.answer(REF, 'Auth0');
    assert.throws(() => db.prepare("UPDATE host_checkpoints SET status = 'pending'").run(), /moves only pending -> answered -> resuming -> resumed/);
    assert.throws(() => db.prepare(`UPDATE host_checkpoints SET answer = '{"value":"Supabase"}'`).run(), /an answer, once stored, never changes/);
  });
});
