// What the cards' MarkdownView puts into the page for tables and nested lists: real table and list elements with
// the alignment applied, and an agent's HTML or javascript: link only ever as text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MarkdownView } from '../../../../src-renderer/ui/markdown/MarkdownView';

// The test runner (tsx) compiles .tsx with the classic JSX transform, which calls React.createElement; the app's
// bundle uses the automatic runtime (src-renderer/tsconfig.json), so only here does React need to be a global.
(globalThis as { React?: typeof React }).React = React;

const render = (source: string): string => renderToStaticMarkup(createElement(MarkdownView, { source }));

test('a table renders as thead/tbody with per-column alignment and formatted cells', () => {
  const html = render('| file | lines |\n|:--|--:|\n| `a.ts` | **12** |');
  assert.match(html, /<div class="md-table"><table><thead><tr><th style="text-align:left">file<\/th><th style="text-align:right">lines<\/th><\/tr><\/thead>/);
  assert.match(html, /<tbody><tr><td style="text-align:left"><code>a\.ts<\/code><\/td><td style="text-align:right"><strong>12<\/strong><\/td><\/tr><\/tbody>/);
});

test('nested lists render inside their parent item; an ordered list keeps its start number', () => {
  const html = render('- one\n  3. three\n  4. four\n- two');
  assert.equal(html, '<div class="markdown-body" data-testid="markdown-body"><ul><li>one<ol start="3"><li>three</li><li>four</li></ol></li><li>two</li></ul></div>');
});

test('HTML and javascript: links from an agent stay text in tables and lists', () => {
  const html = render('| x |\n|---|\n| <img src=x onerror=alert(1)> [go](javascript:alert(1)) |\n\n- <script>alert(1)</script>\n  - [ok](https://example.org)');
  assert.doesNotMatch(html, /<img|<script|<a |href=/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt; \[go\]\(javascript:alert\(1\)\)/);
  assert.match(html, /<span class="md-link" title="https:\/\/example.org">ok/);
});
