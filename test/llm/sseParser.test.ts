// The SSE reader the model clients stream through: whatever way the network splits the bytes (inside a line, inside
// a multi-byte character, between \r and \n), the events come out the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseParser, type ServerSentEvent } from '../../src-main/node/llm/sseParser';

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
