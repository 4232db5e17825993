// The one SSE reader the model clients and the pi-sdk harness stream through: whatever way the network splits the
// bytes (inside a line, inside a multi-byte character, between \r and \n), the events come out the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readServerSentEvents, SseParser, type ServerSentEvent } from '../../src-main/node/base/serverSentEvents';

const BODY = [
  ': a comment the server sends to keep the line open',
  'event: message_start',
  'data: {"type":"message_start"}',
  '',
  'event: content_block_delta',
  'data: {"text":"héllo — 世界 🙂"}',
  '',
  'data: first line',
  'data: second line',
  'id: 7',
  'retry: 1000',
  '',
  'data:no space after the colon',
  '',
  'data: [DONE]',
  '',
  '',
].join('\r\n');

const EXPECTED: ServerSentEvent[] = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { event: 'content_block_delta', data: '{"text":"héllo — 世界 🙂"}' },
  { event: 'message', data: 'first line\nsecond line' },
  { event: 'message', data: 'no space after the colon' },
  { event: 'message', data: '[DONE]' },
];

function parseInPieces(bytes: Buffer, sizes: (index: number) => number): ServerSentEvent[] {
  const parser = new SseParser();
  const events: ServerSentEvent[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes(i));
    events.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  events.push(...parser.end());
  return events;
}

test('events come out the same whole, byte by byte, and in uneven pieces (CRLF, multi-byte characters split)', () => {
  const bytes = Buffer.from(BODY, 'utf8');
  assert.deepEqual(parseInPieces(bytes, () => bytes.length), EXPECTED);
  assert.deepEqual(parseInPieces(bytes, () => 1), EXPECTED);
  assert.deepEqual(parseInPieces(bytes, (i) => [3, 7, 2, 11, 5][i % 5]), EXPECTED);
});

test('LF-only and CR-only line breaks read the same as CRLF', () => {
  for (const newline of ['\n', '\r']) {
    const bytes = Buffer.from(BODY.replace(/\r\n/g, newline), 'utf8');
    assert.deepEqual(parseInPieces(bytes, () => 1), EXPECTED, JSON.stringify(newline));
  }
});

test('an event the body ends before its blank line is dropped, not half-delivered', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('data: complete\n\ndata: cut off'), [{ event: 'message', data: 'complete' }]);
  assert.deepEqual(parser.end(), []);
});

// readServerSentEvents: the same reader over a whole streamed body.

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
const STREAM_EVENTS = [
  { event: 'response.created', data: '{"a":1}' },
  { event: 'delta', data: '{"t":"naïve ☕"}' },
  { event: 'message', data: 'line one\nline two' },
];

test('SSE: comments skipped, CRLF and LF line ends, multi-line data, default event name', async () => {
  assert.deepEqual(await read([STREAM]), STREAM_EVENTS);
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
    assert.deepEqual(events, STREAM_EVENTS, `cut at byte ${cut}`);
  }
});

test('SSE: an event the stream cuts off (no blank line after it) is not delivered', async () => {
  assert.deepEqual(await read(['data: {"whole":true}\n\n', 'data: {"cut":']), [{ event: 'message', data: '{"whole":true}' }]);
});
