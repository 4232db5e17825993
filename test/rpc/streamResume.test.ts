import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { stream } from '../../src-preload/contract';
import { createMemoryTransportPair, RpcServer, type Handlers, type StreamSink } from '../../src-preload/rpc';

const contract = { 'flow.items': stream(z.object({}), z.number()) };

/** A producer like a terminal's pty: it hears when to pause and resume, and pushes what the test tells it to. */
function serve() {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const events: string[] = [];
  let sink: StreamSink<number> | undefined;
  const handlers: Handlers<typeof contract> = {
    'flow.items': (_key, s) => {
      sink = s;
      s.onFlowControl(
        () => events.push('pause'),
        () => events.push('resume'),
      );
    },
  };
  new RpcServer(contract, handlers, serverSide, 'memory');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  return {
    events,
    async subscribe(credit: number) {
      clientSide.send(JSON.stringify({ t: 'sub', id: 1, stream: 'flow.items', key: {}, credit }));
      await settle();
    },
    push(count: number) {
      for (let i = 0; i < count; i++) sink!.push(i);
    },
    async grant(credit: number) {
      clientSide.send(JSON.stringify({ t: 'credit', id: 1, credit }));
      await settle();
    },
  };
}

test('a paused stream producer resumes once a quarter of the window is back, so the consumer is never left without data', async () => {
  const flow = serve();
  await flow.subscribe(100);
  flow.push(100);
  assert.deepEqual(flow.events, ['pause'], 'the whole window outstanding pauses the producer');
  await flow.grant(20);
  assert.deepEqual(flow.events, ['pause'], 'with 80 of 100 still outstanding it stays paused');
  await flow.grant(5);
  assert.deepEqual(flow.events, ['pause', 'resume'], 'at 75 outstanding (a quarter back) it resumes, long before the consumer runs dry');
  flow.push(25);
  assert.deepEqual(flow.events, ['pause', 'resume', 'pause'], 'and pauses again once the window is full');
});
