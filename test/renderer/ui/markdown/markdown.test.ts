// The cards' safe Markdown: GFM tables and nested lists, with the inputs that tend to break such parsers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSafeHref, parseInline, parseMarkdown, type Block, type Inline, type ListBlock, type TableBlock } from '../../../../src-renderer/ui/markdown/markdown';
import { MAX_LIST_DEPTH } from '../../../../src-renderer/ui/markdown/markdownList';

const text = (value: string): Inline => ({ kind: 'text', text: value });
const only = <K extends Block['kind']>(blocks: Block[], kind: K): Extract<Block, { kind: K }> => {
  assert.equal(blocks.length, 1, JSON.stringify(blocks));
  assert.equal(blocks[0].kind, kind);
  return blocks[0] as Extract<Block, { kind: K }>;
};
/** A list as nested arrays of item texts, for readable expectations. */
function shape(list: ListBlock): unknown[] {
  return list.items.map((item) => {
    const label = `${list.ordered ? `${list.start ?? ''}.` : '-'} ${item.inline.map((part) => part.text).join('')}`;
    return item.children.length ? [label, ...item.children.map(shape)] : label;
  });
}
const plainCells = (table: TableBlock) => [table.header, ...table.rows].map((row) => row.map((cell) => cell.map((part) => `${part.kind}:${part.text}`).join(' ')));

test('table: header, alignment row, cells with inline formatting', () => {
  const table = only(parseMarkdown('| name | size | kind |\n|:-----|----:|:----:|\n| `a.ts` | **12** | *code* |\n| [docs](https://example.org) | 3 | text |'), 'table');
  assert.deepEqual(table.align, ['left', 'right', 'center']);
  assert.deepEqual(plainCells(table), [
    ['text:name', 'text:size', 'text:kind'],
    ['code:a.ts', 'strong:12', 'em:code'],
    ['link:docs', 'text:3', 'text:text'],
  ]);
  assert.deepEqual(table.rows[1][0], [{ kind: 'link', text: 'docs', href: 'https://example.org' }]);
});

test('table: escaped pipes stay in their cell, also inside code spans; an escaped backslash before a pipe does not escape it', () => {
  const table = only(parseMarkdown('a | b\n--- | ---\n`x \\| y` | 1 \\| 2\nback\\\\| slash'), 'table');
  assert.deepEqual(table.align, [null, null]);
  assert.deepEqual(table.rows[0], [[{ kind: 'code', text: 'x | y' }], [text('1 | 2')]]);
  assert.deepEqual(table.rows[1], [[text('back\\')], [text('slash')]]);
});

test('table: rows padded or cut to the header width; ends at a blank line or another block; a paragraph before it stays a paragraph', () => {
  const blocks = parseMarkdown('Sizes:\n| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n## Next\n\nafter');
  assert.deepEqual(blocks.map((b) => b.kind), ['paragraph', 'table', 'heading', 'paragraph']);
  const table = blocks[1] as TableBlock;
  assert.deepEqual(table.rows, [[[text('1')], []], [[text('1')], [text('2')]]]);
  const twice = parseMarkdown('| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |');
  assert.deepEqual(twice.map((b) => b.kind), ['table', 'table']);
});

test('not a table: a delimiter row of another width, no pipes, or a rule under text', () => {
  assert.deepEqual(parseMarkdown('| a | b |\n|---|\n| 1 | 2 |').map((b) => b.kind), ['paragraph']);
  assert.deepEqual(parseMarkdown('a - b\n---').map((b) => b.kind), ['paragraph', 'rule']);
  assert.deepEqual(parseMarkdown('a | b\n- - -').map((b) => b.kind), ['paragraph', 'rule']);
  assert.deepEqual(parseMarkdown('a \\| b\n---').map((b) => b.kind), ['paragraph', 'rule']);
});

test('nested lists by indentation: bullets and numbers mixed, back out to the right level, start numbers kept', () => {
  const source = ['- fruit', '  - apple', '  - pear', '    1. ripe', '    2. raw', '- veg', '    * kale', '3. third', '4. fourth'].join('\n');
  const blocks = parseMarkdown(source);
  assert.deepEqual(blocks.map((b) => b.kind), ['list', 'list']);
  assert.deepEqual(shape(blocks[0] as ListBlock), [['- fruit', ['- apple', ['- pear', ['1. ripe', '1. raw']]]], ['- veg', ['- kale']]]);
  assert.deepEqual(shape(blocks[1] as ListBlock), ['3. third', '3. fourth']);
  assert.equal((blocks[1] as ListBlock).start, 3);
});

test('lists: tabs indent, one-space wobble stays on the level, continuation lines join their item, a blank line between items keeps one list', () => {
  const list = only(parseMarkdown('1. one\n\tcontinued **here**\n\t- tabbed child\n2. two\n lazy line\n\n3. three\n   - child of three'), 'list');
  assert.deepEqual(shape(list), [['1. one continued here', ['- tabbed child']], '1. two lazy line', ['1. three', ['- child of three']]]);
  assert.deepEqual(list.items[0].inline, [text('one continued '), { kind: 'strong', text: 'here' }]);
  const wobble = only(parseMarkdown('- a\n - b\n  - c'), 'list');
  assert.deepEqual(shape(wobble), ['- a', ['- b', ['- c']]], 'b is one column off a: a sibling; c, two deeper than b: its child');
});

test('lists: a paragraph after a blank line ends the list; a marker change at the same level starts a sibling list; deep staircases are capped', () => {
  assert.deepEqual(parseMarkdown('- a\n- b\n\nafter the list').map((b) => b.kind), ['list', 'paragraph']);
  assert.deepEqual(parseMarkdown('- a\n1. b').map((b) => b.kind), ['list', 'list']);
  const nested = only(parseMarkdown('- a\n  - b\n  1. c'), 'list');
  assert.deepEqual(nested.items[0].children.map((child) => child.ordered), [false, true]);
  const staircase = Array.from({ length: 200 }, (_, depth) => `${' '.repeat(depth * 2)}- level ${depth}`).join('\n');
  let depth = 0;
  for (let list: ListBlock | undefined = only(parseMarkdown(staircase), 'list'); list; list = list.items[list.items.length - 1].children[0]) depth++;
  assert.equal(depth, MAX_LIST_DEPTH);
  assert.deepEqual(parseMarkdown('* * *').map((b) => b.kind), ['rule']);
});

test('safety: HTML stays text, javascript: and other unsafe links are not links, escapes are literal', () => {
  const table = only(parseMarkdown('| x |\n|---|\n| <img src=x onerror=alert(1)> |\n| [click](javascript:alert(1)) |\n| [ok](docs/readme.md) |'), 'table');
  assert.deepEqual(table.rows[0][0], [text('<img src=x onerror=alert(1)>')]);
  assert.ok(table.rows[1][0].every((part) => part.kind === 'text'));
  assert.equal(table.rows[1][0].map((part) => part.text).join(''), '[click](javascript:alert(1))');
  assert.deepEqual(table.rows[2][0], [{ kind: 'link', text: 'ok', href: 'docs/readme.md' }]);
  for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'java\u0000script:x']) assert.equal(isSafeHref(href), false, href);
  for (const href of ['https://example.org/a?b#c', 'http://x', 'mailto:a@b.c', '#top', 'a/b:c', '../x']) assert.equal(isSafeHref(href), true, href);
  const list = only(parseMarkdown('- [x](javascript:void(0))\n  - <script>alert(1)</script>'), 'list');
  assert.ok(list.items[0].inline.every((part) => part.kind === 'text'));
  assert.deepEqual(list.items[0].children[0].items[0].inline, [text('<script>alert(1)</script>')]);
  assert.deepEqual(parseInline('\\*not em\\* and \\`not code\\`'), [text('*not em* and `not code`')]);
});
