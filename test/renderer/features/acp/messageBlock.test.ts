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
