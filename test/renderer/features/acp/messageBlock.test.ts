// A streamed message's open tail: while it is one plain line it is drawn as an appended text node (MessageBlock's
// PlainTail), which must put into the page what the markdown renderer would; anything that may be markup goes to
// the markdown renderer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MessageBlock } from '../../../../src-renderer/features/acp/MessageBlock';
import { MarkdownView } from '../../../../src-renderer/ui/markdown/MarkdownView';
import { appendMarkdown, emptyMarkdownStream } from '../../../../src-renderer/ui/markdown/markdownStream';

// The test runner compiles .tsx with the classic JSX transform (React.createElement); see markdownView.test.ts.
(globalThis as { React?: typeof React }).React = React;

const message = (text: string): string => renderToStaticMarkup(createElement(MessageBlock, { markdown: appendMarkdown(emptyMarkdownStream, text), role: 'agent' }));
const markdown = (source: string): string => renderToStaticMarkup(createElement(MarkdownView, { source }));
const wrap = (inner: string): string => `<div class="acp-message acp-message-agent" data-testid="acp-agent-message">${inner}</div>`;

test('an open tail is drawn as the markdown renderer draws it, plain or not', () => {
  for (const tail of [
    'plain words streaming in',
    '  indented plain words ',
    '«12:3.4» the agent streams its answer token by token',
    'some **bold** and `code`',
    'a [link](https://example.org)',
    'snake_case_name',
    '# A heading',
    '- a list item',
    '1. first',
    '> quoted',
    '```ts',
    'escaped \\*star',
    'two lines\nof one paragraph',
  ]) {
    assert.equal(message(tail), wrap(markdown(tail)), JSON.stringify(tail));
  }
});

test('finished blocks come first, each drawn on its own (in a box that holds its place while skipped), then the tail', () => {
  const block = (source: string): string => `<div class="acp-block">${markdown(source)}</div>`;
  assert.equal(message('# Title\n\nfirst paragraph\n\nopen tail'), wrap(block('# Title\n') + block('first paragraph\n') + markdown('open tail')));
});

/** A reply of `count` paragraphs of ~6,000 characters each (~75 lines of a typical column), then an open tail. */
function longReply(count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += `«${i}» ${'the agent streams its answer token by token '.repeat(135)}\n\n`;
  return `${text}«open» tail`;
}

const render = (text: string, live: boolean): string =>
  renderToStaticMarkup(createElement(MessageBlock, { markdown: appendMarkdown(emptyMarkdownStream, text), role: 'agent', live }));

test('a streaming reply draws its last screenfuls and holds the place of earlier paragraphs with boxes of their estimated height', () => {
  const html = render(longReply(40), true);
  const pending = [...html.matchAll(/<div class="acp-block acp-block-pending" style="height:(\d+)px"[^>]*><\/div>/g)];
  // Every paragraph is far taller than the view: only the last few are drawn, and each one is drawn in full.
  assert.ok(pending.length >= 30 && pending.length < 40, `${pending.length} of 40 paragraphs are placeholders`);
  for (const [, height] of pending) assert.ok(Number(height) > 1000, `a placeholder of ${height}px for ~75 lines`);
  assert.ok(!html.includes('«0»'), 'the first paragraph is not drawn yet');
  for (let i = pending.length; i < 40; i++) assert.ok(html.includes(`«${i}»`), `paragraph ${i} is drawn`);
  assert.ok(html.includes('«open» tail'), 'the open tail is drawn');
});

test('a reply that is not streaming draws every paragraph', () => {
  const html = render(longReply(40), false);
  assert.ok(!html.includes('acp-block-pending'));
  for (let i = 0; i < 40; i++) assert.ok(html.includes(`«${i}»`), `paragraph ${i} is drawn`);
});
