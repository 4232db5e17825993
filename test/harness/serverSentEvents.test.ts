// The SSE reader the pi-sdk harness parses the Responses stream with: framing survives any chunking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readServerSentEvents, type ServerSentEvent } from '../../src-main/node/harness/runTurn/serverSentEvents';

async function read(chunks: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body())) events.push(event);
  return events;
}

const STREAM = ': keep-alive\r\nevent: response.created\r\ndata: {"a":1}\r\n\r\nevent: delta\ndata: {"t":"naïve ☕"}\n\ndata: line one\ndata: line two\n\n';
const EXPECTED = [
  { event: 'response.created', data: '{"a":1}' },
  { event: 'delta', data: '{"t":"naïve ☕"}' },
  { event: 'message', data: 'line one\nline two' },
];

test('SSE: comments skipped, CRLF and LF line ends, multi-line data, default event name', async () => {
  assert.deepEqual(await read([STREAM]), EXPECTED);
});

test('SSE: the same events whatever the chunking, even a split inside CRLF or inside a UTF-8 character', async () => {
  const bytes = new TextEncoder().encode(STREAM);
  for (let cut = 1; cut < bytes.length; cut++) {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield bytes.slice(0, cut);
      yield bytes.slice(cut);
    }
    const events: ServerSentEvent[] = [];
    for await (const event of readServerSentEvents(body())) events.push(event);
    assert.deepEqual(events, EXPECTED, `cut at byte ${cut}`);
  }
});

test('SSE: an event the stream cuts off (no blank line after it) is not delivered', async () => {
  assert.deepEqual(await read(['data: {"whole":true}\n\n', 'data: {"cut":']), [{ event: 'message', data: '{"whole":true}' }]);
});
