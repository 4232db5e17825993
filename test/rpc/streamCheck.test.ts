// StreamDef.check: a hand-written test in front of a stream item's schema (acp.updates: an agent's flood is thousands
// of entries a second). The check must accept exactly what the schema accepts, and an item outside the contract ends
// the client's stream with a typed error instead of throwing out of the transport.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AcpEntry, contract, isAcpEntry } from '../../src-preload/contract';
import { RpcError } from '../../src-preload/contract/errors';
import { createMemoryTransportPair, RpcClient } from '../../src-preload/rpc';

const good = { seq: 7, ts: 1_764_000_000_000, conversationId: 'acp_abcdefgh12', type: 'update', data: { sessionUpdate: 'agent_message_chunk' } };

test('isAcpEntry accepts what AcpEntry accepts and refuses what it refuses', () => {
  const samples: unknown[] = [
    good,
    { ...good, data: undefined },
    { seq: good.seq, ts: good.ts, conversationId: good.conversationId, type: 'turn' },
    { ...good, extra: 'ignored' },
    ...['prompt', 'update', 'turn', 'error', 'notice', 'status', 'other', '', undefined, 1].map((type) => ({ ...good, type })),
    ...[0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '7', null, undefined].map((seq) => ({ ...good, seq })),
    ...[0, 1.5, 2 ** 53, '1', null].map((ts) => ({ ...good, ts })),
    ...['acp_abcdefgh12', 'acp_short', 'acp_' + 'x'.repeat(64), 'acp_' + 'x'.repeat(65), 'acp_abc def gh', 'xacp_abcdefgh', 7, null].map((conversationId) => ({ ...good, conversationId })),
    null,
    undefined,
    'entry',
    [good],
    [],
    7,
  ];
  for (const sample of samples) assert.equal(isAcpEntry(sample), AcpEntry.safeParse(sample).success, JSON.stringify(sample) ?? String(sample));
});

test('acp.updates uses the check; an entry outside the contract ends the stream with INTERNAL, the rest is not delivered', async () => {
  assert.equal(contract['acp.updates'].check, isAcpEntry);
  const [clientSide, hostSide] = createMemoryTransportPair();
  const sent: { t: string; id: number }[] = [];
  hostSide.onMessage((frame) => sent.push(JSON.parse(String(frame)) as { t: string; id: number }));
  const client = new RpcClient(contract, clientSide);
  const got: number[] = [];
  let ended: RpcError | undefined;
  client.subscribe('acp.updates', { conversationId: good.conversationId }, { onItem: (entry) => got.push(entry.seq), onEnd: (error) => (ended = error) });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const id = sent.find((frame) => frame.t === 'sub')!.id;
  hostSide.send(JSON.stringify({ t: 'items', id, items: [good, { ...good, seq: 8, type: 'bogus' }, { ...good, seq: 9 }] }));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(got, [7]);
  assert.ok(ended instanceof RpcError);
  assert.equal(ended.code, 'INTERNAL');
  assert.ok(sent.some((frame) => frame.t === 'unsub' && frame.id === id), 'the client unsubscribed');
  client.dispose();
});
