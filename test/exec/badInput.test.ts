import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../../src-preload/contract/errors';
import { DomainError } from '../../src-main/node/base/domainError';
import { toRpcError } from '../../src-main/node/handlerErrors';
import type { ShellRequest } from '../../src-preload/contract/exec';
import { execFixture, SESSION } from './execFixture';

/** Rejects with a DomainError that the handler edge makes an RpcError of `code` whose message matches `message`; returns that. */
async function refused(promise: Promise<unknown>, code: string, message: RegExp): Promise<RpcError> {
  const thrown = await promise.then(
    () => assert.fail('expected the request to be refused'),
    (error: unknown) => error,
  );
  assert.ok(thrown instanceof DomainError, `a DomainError, not ${String(thrown)}`);
  const error = toRpcError('exec.shell', thrown, () => assert.fail('a DomainError is not internal'));
  assert.ok(error instanceof RpcError);
  assert.equal(error.code, code);
  assert.match(error.message, message);
  return error;
}

test('bad shell requests get a typed error that says what was wrong and how to fix it', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const shell = (request: unknown) => f.shell(request as ShellRequest);

  await t.test('unknown action', async () => {
    const error = await refused(shell({ action: 'launch', command: 'true', session_id: SESSION }), 'INVALID_PARAMS', /action/);
    assert.deepEqual(error.issues?.map((issue) => issue.path), ['action']);
    assert.match(error.message, /spawn.*poll.*kill.*send_keys/);
  });

  await t.test('missing command for spawn, and for a one-shot', async () => {
    const spawn = await refused(shell({ action: 'spawn', session_id: SESSION }), 'INVALID_PARAMS', /action=spawn needs a command/);
    assert.deepEqual(spawn.issues?.map((issue) => issue.path), ['command']);
    await refused(shell({ session_id: SESSION }), 'INVALID_PARAMS', /one-shot run .* needs a command/);
  });

  await t.test('bad regex: which watcher and why', async () => {
    const error = await refused(
      shell({ action: 'spawn', command: 'true', session_id: SESSION, watch: [{ regex: 'ok', event: 'fine' }, { regex: 'ready(', event: 'up' }] }),
      'INVALID_PARAMS',
      /watch\[1\]\.regex \(event "up"\) is not a valid regular expression: .*/,
    );
    assert.deepEqual(error.issues?.map((issue) => issue.path), ['watch.1.regex']);
    await refused(
      shell({ action: 'spawn', command: 'true', session_id: SESSION, watch: [{ regex: 'x*', event: 'any' }] }),
      'INVALID_PARAMS',
      /watch\[0\]\.regex .* matches the empty string/,
    );
    await refused(
      shell({ action: 'spawn', command: 'true', session_id: SESSION, watch: [{ regex: 'bye', event: 'exit' }] }),
      'INVALID_PARAMS',
      /watch\[0\]\.event "exit" is the name of one of the run's own events/,
    );
    assert.equal(f.exec.listRuns(SESSION).length, 0, 'nothing was queued');
  });

  await t.test('negative limits', async () => {
    const timeout = await refused(shell({ action: 'spawn', command: 'true', session_id: SESSION, timeout_secs: -1 }), 'INVALID_PARAMS', /timeout_secs must be more than 0/);
    assert.deepEqual(timeout.issues?.map((issue) => issue.path), ['timeout_secs']);
    await refused(shell({ action: 'spawn', command: 'true', session_id: SESSION, max_output_bytes: -5 }), 'INVALID_PARAMS', /max_output_bytes must be more than 0/);
    await refused(shell({ action: 'poll', run_id: 'run_0000000000000000', since_seq: -1 }), 'INVALID_PARAMS', /since_seq cannot be negative/);
  });

  await t.test('unknown run_id', async () => {
    await refused(shell({ action: 'poll', run_id: 'run_doesnotexist00' }), 'NOT_FOUND', /no run run_doesnotexist00: check the run_id that spawn returned/);
    await refused(shell({ action: 'kill', run_id: 'run_doesnotexist00' }), 'NOT_FOUND', /no run run_doesnotexist00/);
    await refused(shell({ action: 'send_keys', run_id: 'run_doesnotexist00', keys: ['Enter'] }), 'NOT_FOUND', /no run run_doesnotexist00/);
    await refused(shell({ action: 'poll', run_id: 'not-a-run' }), 'INVALID_PARAMS', /expected a run id like "run_…"/);
  });

  await t.test('since_seq beyond the end', async () => {
    const spawned = await f.shell({ action: 'spawn', command: 'echo one; echo two', session_id: SESSION, background: false });
    assert.equal(spawned.action, 'spawn');
    const runId = spawned.run_id;
    const all = await f.shell({ action: 'poll', run_id: runId });
    assert.equal(all.action, 'poll');
    const last = all.next_seq;
    assert.ok(last >= 2, 'output and the exit event');
    await refused(
      shell({ action: 'poll', run_id: runId, since_seq: 500 }),
      'INVALID_PARAMS',
      new RegExp(`since_seq 500 is past the last item ${last} of ${runId}; poll with since_seq ≤ ${last}`),
    );
    const atEnd = await f.shell({ action: 'poll', run_id: runId, since_seq: last });
    assert.ok(atEnd.action === 'poll' && atEnd.items.length === 0 && !atEnd.more, 'since_seq = the last item is fine: nothing new');
  });

  await t.test('fields an action does not take, keys that are not keys, a cwd outside the workspace', async () => {
    await refused(shell({ action: 'poll', run_id: 'run_0000000000000000', command: 'ls' }), 'INVALID_PARAMS', /action=poll does not take command/);
    await refused(shell({ action: 'send_keys', run_id: 'run_0000000000000000' }), 'INVALID_PARAMS', /needs keys/);
    await refused(shell({ action: 'spawn', command: 'true', session_id: SESSION, cwd: '../..' }), 'INVALID_PARAMS', /outside the workspace/);
    await refused(shell({ action: 'spawn', command: 'true' }), 'INVALID_PARAMS', /session_id: say which session/);
    await refused(
      shell({ action: 'spawn', command: ['echo', ...Array(20).fill('x'.repeat(60_000))], session_id: SESSION }),
      'INVALID_PARAMS',
      /command: the command is 1200025 bytes; at most 1048576 .* pass large input through a file/,
    );
    const sleeper = await f.shell({ action: 'spawn', command: 'cat', session_id: SESSION });
    assert.equal(sleeper.action, 'spawn');
    await refused(shell({ action: 'send_keys', run_id: sleeper.run_id, keys: ['C-1'] }), 'INVALID_PARAMS', /keys\[0\] "C-1" looks like a key but is not one/);
    await f.shell({ action: 'kill', run_id: sleeper.run_id });
    await refused(shell({ action: 'send_keys', run_id: sleeper.run_id, keys: ['x'] }), 'INVALID_STATE', /has ended \(killed/);
  });

  await t.test("an agent does not see another session's runs", async () => {
    const theirs = await f.shell({ action: 'spawn', command: 'true', session_id: 'ses_someoneelse01' });
    assert.equal(theirs.action, 'spawn');
    await refused(
      f.exec.shell({ action: 'poll', run_id: theirs.run_id }, { actor: 'agent-x', sessionId: SESSION, workspace: f.workspace }),
      'NOT_FOUND',
      new RegExp(`no run ${theirs.run_id} in session ${SESSION}`),
    );
  });
});
