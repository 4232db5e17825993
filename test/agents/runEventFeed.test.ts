// A run's event stream (agent.events) through the real RPC server and client: a replay far larger than the
// stream's queue arrives whole (paced by the consumer's credit), a flood of small live chunks travels as a few joined
// events with every character in order, and events of other kinds keep their place between them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRunEvent, AgentRunInfo } from '../../src-preload/contract';
import { agentContract } from '../../src-preload/contract/agents';
import { createMemoryTransportPair, RpcClient, RpcServer, type Handlers } from '../../src-preload/rpc';
import { AgentRun } from '../../src-main/node/agents/runtime/agentRun';
import { MAX_MERGED_CHARS, RunEventFeed } from '../../src-main/node/agents/runtime/runEventFeed';

const contract = { 'agent.events': agentContract['agent.events'] };

function newRun(): AgentRun {
  const info: AgentRunInfo = {
    id: 'run_feedtest01',
    sessionId: 'ses_feedtest01',
    agent: 'flood',
    prompt: 'go',
    state: 'Active',
    outcome: 'running',
    startedAt: 0,
    endedAt: null,
    error: null,
    deniedCalls: 0,
    grantsGiven: 0,
  };
  return new AgentRun(info);
}

/** Subscribes as the renderer does (credit in characters, acked as items are handled) and collects until the end. */
function follow(run: AgentRun, credit: number): { events: Promise<AgentRunEvent[]>; close(): void } {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const handlers: Handlers<typeof contract> = { 'agent.events': (_key, sink) => new RunEventFeed(run, sink) };
  const server = new RpcServer(contract, handlers, serverSide, 'memory');
  const client = new RpcClient(contract, clientSide);
  const events = new Promise<AgentRunEvent[]>((resolve, reject) => {
    const got: AgentRunEvent[] = [];
    client.subscribe('agent.events', { runId: run.info.id }, { onItem: (e) => got.push(e), onEnd: (error) => (error ? reject(error) : resolve(got)) }, { credit });
  });
  return {
    events,
    close() {
      client.dispose();
      server.dispose();
    },
  };
}

const output = (cardId: string, data: string, cardKind: 'log' | 'image' = 'log'): AgentRunEvent => ({
  kind: 'output',
  cardId,
  cardKind,
  contentType: cardKind === 'image' ? 'image/png' : 'text/x-log',
  language: null,
  data,
});

const textOf = (events: AgentRunEvent[], cardId: string): string =>
  events.map((e) => (e.kind === 'output' && e.cardId === cardId ? e.data : '')).join('');

test('a finished run with twice as much output as the stream may queue replays whole, in order, as the consumer takes it', async (t) => {
  const run = newRun();
  const line = (i: number): string => `line ${String(i).padStart(7, '0')} of a very long log\n`;
  const lines = 60_000; // 2.1 million characters; the stream queues at most 1 MiB past the consumer's credit
  for (let i = 0; i < lines; i++) run.push(output('log', line(i)));
  run.end({ outcome: 'completed', error: null }, 1);
  const stream = follow(run, 1000);
  t.after(() => stream.close());
  const events = await stream.events;
  const text = textOf(events, 'log');
  assert.equal(text.length, Array.from({ length: lines }, (_, i) => line(i)).join('').length);
  assert.equal(text, Array.from({ length: lines }, (_, i) => line(i)).join(''));
  assert.equal(events.at(-1)?.kind, 'ended');
  assert.ok(events.every((e) => e.kind !== 'output' || e.data.length <= MAX_MERGED_CHARS));
});

test('live chunks sent together travel as one event; other events and other cards keep their place; image frames are not joined', async (t) => {
  const run = newRun();
  const stream = follow(run, 1_000_000);
  t.after(() => stream.close());
  for (let i = 0; i < 500; i++) run.push(output('log', `a${i}\n`));
  run.push({ kind: 'artifact', id: 'art1', artifactKind: 'file', path: 'out.txt', previewHint: null });
  for (let i = 0; i < 500; i++) run.push(output('log', `b${i}\n`));
  run.push(output('notes', 'other card'));
  run.push(output('log', 'c\n'));
  run.push(output('picture', 'frame1', 'image'));
  run.push(output('picture', 'frame2', 'image'));
  run.end({ outcome: 'completed', error: null }, 1);
  const events = await stream.events;
  const shape = events.map((e) => (e.kind === 'output' ? `${e.cardId}:${e.data.split('\n').length - 1 || e.data}` : e.kind));
  assert.deepEqual(shape, ['log:500', 'artifact', 'log:500', 'notes:other card', 'log:1', 'picture:frame1', 'picture:frame2', 'ended']);
  const expected = [...Array.from({ length: 500 }, (_, i) => `a${i}\n`), ...Array.from({ length: 500 }, (_, i) => `b${i}\n`), 'c\n'].join('');
  assert.equal(textOf(events, 'log'), expected);
});
