// The review's answers asked for while the pointer is on a turn's badge (served by a real RpcServer over a memory
// transport): one pair of calls however often the pointer comes back while they are fresh, the first file's diff
// among them, each used once, and none used once stale (a verdict given elsewhere since would not be in it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contract, type ChangedFile, type Contract, type FileDiff } from '../../../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers } from '../../../../src-preload/rpc';
import { prefetchReview, takePrefetchedReview } from '../../../../src-renderer/ui/changes/reviewPrefetch';

const file: ChangedFile = { path: 'src/a.ts', status: 'modified', binary: false, additions: 1, deletions: 1, verdict: 'pending' };
const diff: FileDiff = { file, hunks: [{ index: 0, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, heading: '', lines: ['-a', '+b'], verdict: 'pending' }] };

function host() {
  const calls: string[] = [];
  const handlers = {
    'changes.files': async ({ turnId }: { turnId: string }) => {
      calls.push(`files ${turnId}`);
      return { files: turnId === 'turn_emptyturn' ? [] : [file], skipped: [] };
    },
    'changes.diff': async ({ turnId, path }: { turnId: string; path: string }) => {
      calls.push(`diff ${turnId} ${path}`);
      return diff;
    },
  } as unknown as Handlers<Contract>;
  const [clientSide, serverSide] = createMemoryTransportPair();
  new RpcServer(contract, handlers, serverSide, 'memory');
  return { calls, client: new RpcClient(contract, clientSide), close: () => clientSide.close('done') };
}

test('the pointer on a badge asks once for the files and the first diff; the review takes them once', async () => {
  const { calls, client, close } = host();
  prefetchReview(client, 'turn_aaaaaaaa', 1_000);
  prefetchReview(client, 'turn_aaaaaaaa', 2_000);
  const taken = takePrefetchedReview('turn_aaaaaaaa', 3_000);
  assert.ok(taken);
  assert.deepEqual((await taken.files).files, [file]);
  assert.deepEqual(await taken.firstDiff, diff);
  assert.deepEqual(calls, ['files turn_aaaaaaaa', 'diff turn_aaaaaaaa src/a.ts']);
  assert.equal(takePrefetchedReview('turn_aaaaaaaa', 3_000), null, 'used once');
  close();
});

test('stale answers are not used, and a turn without files asks for no diff', async () => {
  const { calls, client, close } = host();
  prefetchReview(client, 'turn_bbbbbbbb', 1_000);
  assert.equal(takePrefetchedReview('turn_bbbbbbbb', 1_000 + 60_000), null);
  prefetchReview(client, 'turn_emptyturn', 1_000);
  const empty = takePrefetchedReview('turn_emptyturn', 1_500);
  assert.equal(await empty?.firstDiff, null);
  assert.deepEqual(calls.filter((c) => c.startsWith('diff turn_emptyturn')), []);
  close();
});
