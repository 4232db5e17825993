// Streamed markdown cut into finished blocks: at blank lines, never inside a code fence, whatever the chunking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendMarkdown, emptyMarkdownStream, markdownText, type MarkdownStream } from '../../../../src-renderer/ui/markdown/markdownStream';

const feed = (pieces: string[]): MarkdownStream => pieces.reduce(appendMarkdown, emptyMarkdownStream);
const SOURCE = '# Title\n\nSome text\nmore\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- one\n- two\n\n\nend';

test('blocks end at blank lines outside fences; the text is kept exactly', () => {
  const stream = feed([SOURCE]);
  assert.deepEqual(stream.blocks, ['# Title\n', 'Some text\nmore\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n', '- one\n- two\n']);
  assert.equal(stream.tail, '\nend');
  assert.equal(markdownText(stream), SOURCE);
});

test('any chunking gives the same blocks as the whole text at once', () => {
  const whole = feed([SOURCE]);
  for (const size of [1, 2, 3, 7]) {
    const pieces: string[] = [];
    for (let i = 0; i < SOURCE.length; i += size) pieces.push(SOURCE.slice(i, i + size));
    const stream = feed(pieces);
    assert.deepEqual(stream.blocks, whole.blocks, `chunks of ${size}`);
    assert.equal(markdownText(stream), SOURCE);
  }
});

test('appending leaves the earlier value unchanged', () => {
  const before = feed(['a\n\n']);
  const blocks = before.blocks;
  appendMarkdown(before, 'b\n\nc');
  assert.equal(before.blocks, blocks);
  assert.deepEqual(before.blocks, ['a\n']);
});
