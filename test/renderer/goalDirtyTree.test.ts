import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../../src-preload/contract/errors';
import { dirtyTreeFiles } from '../../src-renderer/features/goal/DirtyTreeQuestion';

test('the goal panel asks its question only for the host’s DIRTY_TREE refusal, with the files it names', () => {
  const question = new RpcError('INVALID_STATE', 'the workspace has 2 uncommitted file(s) (…) [DIRTY_TREE]', [
    { path: 'dirtyTree', message: ' M app.txt' },
    { path: 'dirtyTree', message: '?? notes.txt' },
  ]);
  assert.deepEqual(dirtyTreeFiles(question), [' M app.txt', '?? notes.txt']);
  // Any other refusal is shown as an error, not as the question.
  assert.equal(dirtyTreeFiles(new RpcError('INVALID_STATE', 'the session is closed; reopen it first')), null);
  assert.equal(dirtyTreeFiles(new RpcError('INVALID_PARAMS', '.meta/context.md line 5: … [PLAN]', [{ path: 'dirtyTree', message: 'x' }])), null);
  assert.equal(dirtyTreeFiles(new Error('[DIRTY_TREE]')), null);
});
