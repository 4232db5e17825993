import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RpcError } from '../../src-preload/contract/errors';
import { execContract, type Run, type RunItem } from '../../src-preload/contract/exec';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers, type StreamSink } from '../../src-preload/rpc';
import { ExecService } from '../../src-main/node/exec/execService';
import { ExecStore } from '../../src-main/node/exec/execStore';
import type { RunItemSink } from '../../src-main/node/exec/runItemFeed';
import { runProcesses } from '../../src-main/node/exec/runProcesses';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir, waitFor } from '../helpers';
import { endedRun, execFixture, pollAll, SESSION, spawnRun, waitEnded } from './execFixture';

test('subscribeItems replays from since_seq, then follows live: the same items as poll, none missed, none twice', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: 'for i in $(seq 1 40); do echo "line $i"; sleep 0.01; done' });
  await waitFor(async () => (await pollAll(f, runId)).items.length >= 10, 'some output');
  const fromStart: RunItem[] = [];
  const fromFive: RunItem[] = [];
  const stopStart = f.exec.subscribeItems(runId, 0, (item) => fromStart.push(item));
  const stopFive = f.exec.subscribeItems(runId, 5, (item) => fromFive.push(item));
  await waitEnded(f, runId);
  await waitFor(() => fromStart.at(-1)?.data === 'exit', 'the exit item to reach the listener');
  stopStart();
  stopFive();
  const { items } = await pollAll(f, runId);
  assert.deepEqual(fromStart, items);
  assert.deepEqual(fromFive, items.slice(5));
});

test('subscribeRuns reports a run queued, running, then ended, with its output size', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const seen: Run[] = [];
  const stop = f.exec.subscribeRuns(SESSION, (run) => seen.push(run));
  const runId = await spawnRun(f, { command: 'echo hello; sleep 0.4' });
  await waitEnded(f, runId);
  await waitFor(() => seen.at(-1)?.status === 'exited', 'the end to be reported');
  stop();
  const statuses = seen.map((run) => run.status).filter((status, i, all) => status !== all[i - 1]);
  assert.deepEqual(statuses, ['queued', 'running', 'exited']);
  assert.ok(seen.some((run) => run.status === 'running' && run.output_bytes === 6), 'output size while it runs');
  assert.equal(seen.at(-1)!.output_bytes, 6);
  assert.equal(f.exec.listRuns(SESSION)[0].run_id, runId);
});

test('host stop (dispose) ends the processes and leaves the run to be recovered by the next start', async (t) => {
  const dir = tempDir('exec-stop');
  t.after(dir.cleanup);
  const first = await execFixture({}, { path: dir.path, cleanup: () => undefined });
  const runId = await spawnRun(first, { command: 'echo one; sleep 300' });
  await waitFor(async () => (await pollAll(first, runId)).items.length > 0, 'the first output');
  const pgid = first.db.prepare<[string], { pgid: number }>('SELECT pgid FROM exec_runs WHERE run_id = ?').get(runId)!.pgid;
  await first.close();
  assert.deepEqual(runProcesses(runId, pgid), [], 'nothing of the run outlives the host');

  const db = openDatabase(join(dir.path, 'memory', 'sessions.db'));
  const ledger = new Ledger(db);
  const exec = new ExecService(db, ledger);
  t.after(async () => {
    await exec.dispose();
    await ledger.close();
    db.close();
  });
  const recovered = await exec.start();
  assert.deepEqual(recovered.map((r) => [r.runId, r.attempt, r.outcome, r.leftoverProcesses]), [[runId, 1, 'requeued', 0]]);
  const soFar = () => {
    const items: RunItem[] = [];
    exec.subscribeItems(runId, 0, (item) => items.push(item))();
    return items;
  };
  await waitFor(() => soFar().filter((item) => item.data === 'one\n').length === 2, 'attempt 2 to print');
  assert.equal(exec.listRuns(SESSION)[0].attempt, 2);
  await exec.shell({ action: 'kill', run_id: runId }, { actor: 'user', workspace: join(dir.path, 'workspace') });
  await waitFor(() => exec.listRuns(SESSION)[0].status === 'killed', 'the kill');
  assert.deepEqual(
    soFar().map((item) => (item.kind === 'event' ? `event:${item.data}` : item.data)),
    ['one\n', 'event:host_stopped', 'event:recovered', 'one\n', 'event:killed', 'event:exit'],
  );
});

test('a run is failed, not retried, once its attempts are used up', async (t) => {
  const dir = tempDir('exec-attempts');
  t.after(dir.cleanup);
  let runId = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const f = await execFixture({ maxAttempts: 2 }, { path: dir.path, cleanup: () => undefined });
    if (attempt === 1) runId = await spawnRun(f, { command: 'sleep 300' });
    if (attempt <= 2) await waitFor(() => f.exec.listRuns(SESSION)[0]?.status === 'running', `attempt ${attempt} to run`);
    const run = f.exec.listRuns(SESSION)[0];
    await f.close();
    if (attempt === 3) {
      assert.equal(run.status, 'failed');
      assert.equal(run.reason, 'the host stopped during attempt 2 of 2: not run again');
      assert.equal(run.attempt, 2);
    }
  }
  assert.ok(runId);
});

test('attachItems feeds a stream reader at its pace: nothing pushed while it is paused, nothing missed, ended after exit', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  // 4 MB, with the reader attached from the start, so it replays part and follows the rest live.
  const runId = await spawnRun(f, { command: "head -c 4000000 /dev/zero | tr '\\0' z" });
  const received: RunItem[] = [];
  let paused = false;
  let pushedWhilePaused = 0;
  let ends = 0;
  let resume = () => undefined as void;
  const sink = {
    push(item: RunItem) {
      if (paused) pushedWhilePaused++;
      received.push(item);
      // A slow reader: out of credit after every 3 items, credit back a little later.
      if (received.length % 3 === 0) {
        paused = true;
        setTimeout(() => {
          paused = false;
          resume();
        }, 2);
      }
    },
    end: () => ends++,
    onFlowControl: (_pause: () => void, onResume: () => void) => (resume = onResume),
    get isPaused() {
      return paused;
    },
    isClosed: false,
  };
  const feed = f.exec.attachItems(runId, 0, sink);
  t.after(() => feed.dispose());
  await waitEnded(f, runId);
  await waitFor(() => ends > 0, 'the feed to end');
  const { items } = await pollAll(f, runId);
  assert.equal(pushedWhilePaused, 0);
  assert.equal(ends, 1);
  assert.deepEqual(received, items);
  assert.equal(received.filter((item) => item.kind === 'stdout').reduce((n, item) => n + item.data.length, 0), 4_000_000);
});

test('through the real bridge: a 5 MB run replays whole over the exec.items stream with attachItems (credit respected)', async (t) => {
  const { f, runId, items } = await endedRun(t, "head -c 5000000 /dev/zero | tr '\\0' z");
  const contract = { 'exec.items': execContract['exec.items'] };
  const [serverSide, clientSide] = createMemoryTransportPair();
  const handlers: Handlers<typeof contract> = {
    'exec.items': ({ runId: id, sinceSeq }: { runId: string; sinceSeq?: number }, sink: StreamSink<RunItem>) => f.exec.attachItems(id, sinceSeq ?? 0, sink),
  };
  const server = new RpcServer(contract, handlers, serverSide, 'memory');
  const client = new RpcClient(contract, clientSide);
  t.after(() => {
    client.dispose();
    server.dispose();
  });
  const received: RunItem[] = [];
  const ended = await new Promise<RpcError | undefined>((resolve) => {
    client.subscribe('exec.items', { runId, sinceSeq: 0 }, { onItem: (item) => void received.push(item), onEnd: resolve });
  });
  assert.equal(ended, undefined, 'ended cleanly after the exit item, not with OVERFLOW');
  assert.deepEqual(received, items);
});

test('attachItems with a reader that hands credit back from inside push: every item once, in order', async (t) => {
  const { f, runId, items } = await endedRun(t, 'for i in $(seq 1 300); do echo "line $i"; done');
  const received: RunItem[] = [];
  let paused = false;
  let resume = () => undefined as void;
  let done = false;
  f.exec.attachItems(runId, 0, {
    push(item) {
      received.push(item);
      // Out of credit, and credit back at once, re-entering the feed (as a synchronous transport would).
      paused = true;
      paused = false;
      resume();
    },
    end: () => (done = true),
    onFlowControl: (_pause, onResume) => (resume = onResume),
    get isPaused() {
      return paused;
    },
    isClosed: false,
  });
  assert.ok(done);
  assert.deepEqual(received.map((item) => item.seq), items.map((item) => item.seq));
});

test('a reader that takes one item at a time gets every item, and the host reads each from the table about once', async (t) => {
  const { f, runId, items } = await endedRun(t, 'for i in $(seq 1 100); do echo "line $i"; sleep 0.005; done');
  assert.ok(items.length > 50, `the run gave only ${items.length} items`);
  const reads = t.mock.method(ExecStore.prototype, 'items');
  const received: RunItem[] = [];
  await new Promise<void>((resolve) => {
    let paused = false;
    let resume = (): void => undefined;
    // Out of credit after every item, and given more on the next turn of the loop: a card on a slow page.
    const sink: RunItemSink = {
      push(item) {
        received.push(item);
        paused = true;
        setImmediate(() => {
          paused = false;
          resume();
        });
      },
      end: resolve,
      onFlowControl(_onPause, onResume) {
        resume = onResume;
      },
      get isPaused() {
        return paused;
      },
      isClosed: false,
    };
    f.exec.attachItems(runId, 0, sink);
  });
  assert.deepEqual(received, items);
  // Before, every resume read a whole page (up to 256 items) and dropped all but the first: ~n²/2 rows.
  const rowsRead = reads.mock.calls.reduce((sum, call) => sum + (call.result as RunItem[]).length, 0);
  assert.ok(rowsRead <= 3 * items.length, `${rowsRead} rows read from the table to deliver ${items.length} items`);
});
