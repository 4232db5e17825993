// The turns behind every "N files changed" badge: one changes.turns subscription per session however many badges
// hold it (served by a real RpcServer over a memory transport), closed when the last lets go; and a card finds its
// turn by what made it (a conversation's prompt by seq, a goal task's latest attempt).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contract, type ChangeTurn, type Contract } from '../../../../src-preload/contract';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers } from '../../../../src-preload/rpc';
import { liveListHandler } from '../../../../src-preload/rpc/liveListHandler';
import { changingItems } from '../../../rpc/changingItems';
import { followedSessionCount, holdSessionTurns, useTurns } from '../../../../src-renderer/ui/changes/turnsStore';
import { filesChangedText, findTurn } from '../../../../src-renderer/ui/changes/turnModel';

const sessionId = 'ses_turnsstore';

function turn(id: string, source: ChangeTurn['source'], startedAt: number, filesChanged = 2): ChangeTurn {
  return {
    id,
    sessionId,
    source,
    agent: 'Claude Code',
    title: 'write a file',
    startedAt,
    endedAt: startedAt + 1,
    before: 'snap_before00',
    after: 'snap_after000',
    filesChanged,
    verdict: 'pending',
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

test('badges of one session share one subscription, which the last one to let go closes', async () => {
  const turns = changingItems([turn('turn_aaaaaaaa', { kind: 'agent_run', id: 'run_1' }, 1)]);
  let opened = 0;
  let open = 0;
  const serve = liveListHandler(contract['changes.turns'], { list: () => [...turns.items.values()], onDidChange: (_key, emit) => turns.changes.event(emit) });
  const handlers = {
    'changes.turns': (key: { sessionId: string }, sink: Parameters<typeof serve>[1], ctx: Parameters<typeof serve>[2]) => {
      opened++;
      open++;
      const served = serve(key, sink, ctx);
      return {
        dispose: () => {
          open--;
          served?.dispose();
        },
      };
    },
  } as unknown as Handlers<Contract>;
  const [clientSide, serverSide] = createMemoryTransportPair();
  new RpcServer(contract, handlers, serverSide, 'memory');
  const client = new RpcClient(contract, clientSide);

  const releases = [holdSessionTurns(client, sessionId), holdSessionTurns(client, sessionId), holdSessionTurns(client, sessionId)];
  await settle();
  assert.equal(opened, 1, 'one subscription for three badges');
  assert.equal(followedSessionCount(), 1);
  assert.deepEqual(
    useTurns.getState().sessions[sessionId].items.map((t) => t.id),
    ['turn_aaaaaaaa'],
  );

  turns.put({ ...turn('turn_bbbbbbbb', { kind: 'shell_run', id: 'run_2' }, 2), verdict: 'rejected' });
  await settle();
  assert.deepEqual(
    useTurns.getState().sessions[sessionId].items.map((t) => [t.id, t.verdict]),
    [
      ['turn_aaaaaaaa', 'pending'],
      ['turn_bbbbbbbb', 'rejected'],
    ],
  );

  releases[0]();
  releases[0]();
  releases[1]();
  await settle();
  assert.equal(open, 1, 'still held by one badge');
  releases[2]();
  await settle();
  assert.equal(open, 0, 'closed with the last badge');
  assert.equal(followedSessionCount(), 0);
  clientSide.close('done');
});

test('a card finds its turn by what made it; a task shows its latest attempt; the badge words', () => {
  const turns = [
    turn('turn_prompt01', { kind: 'conversation', id: 'conv_1', seq: 3 }, 10),
    turn('turn_prompt02', { kind: 'conversation', id: 'conv_1', seq: 9 }, 20, 1),
    turn('turn_task0001', { kind: 'goal_task', id: 'T1' }, 30),
    turn('turn_task0002', { kind: 'goal_task', id: 'T1' }, 40, 0),
  ];
  assert.equal(findTurn(turns, { kind: 'conversation', id: 'conv_1', seq: 9 })?.id, 'turn_prompt02');
  assert.equal(findTurn(turns, { kind: 'conversation', id: 'conv_1', seq: 4 }), null);
  assert.equal(findTurn(turns, { kind: 'goal_task', id: 'T1' })?.id, 'turn_task0002');
  assert.equal(findTurn(turns, { kind: 'agent_run', id: 'T1' }), null);
  assert.equal(filesChangedText(turns[0]), '2 files changed');
  assert.equal(filesChangedText(turns[1]), '1 file changed');
  assert.equal(filesChangedText(turns[3]), 'no files changed');
  assert.equal(filesChangedText({ ...turns[0], endedAt: null }), 'changing files…');
});
