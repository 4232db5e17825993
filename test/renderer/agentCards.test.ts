import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRunEvent, AgentRunInfo } from '../../src-preload/contract';
import { diffLineKind, summarizeDiff } from '../../src-renderer/ui/diff/diffLines';
import { highlightLine, languageOf, type Language } from '../../src-renderer/ui/code/highlight';
import { stateAtLine } from '../../src-renderer/ui/code/lineStates';
import { parseInline, parseMarkdown } from '../../src-renderer/ui/markdown/markdown';
import { applyRunEvent, cardLine, cardLineCount, cardText, newRunModel, type RunModel } from '../../src-renderer/features/agents/runModel';

const info: AgentRunInfo = {
  id: 'run_abcdefgh',
  sessionId: 'ses_1',
  agent: 'scaffolder',
  prompt: 'scaffold demo',
  state: 'Active',
  outcome: 'running',
  startedAt: 1,
  endedAt: null,
  error: null,
  deniedCalls: 0,
  grantsGiven: 0,
};

function output(cardId: string, data: string, cardKind: 'markdown' | 'code' | 'diff' | 'log' | 'image' = 'log'): AgentRunEvent {
  return { kind: 'output', cardId, cardKind, contentType: 'text/x-log', language: null, data };
}

function apply(events: AgentRunEvent[]): RunModel {
  return events.reduce(applyRunEvent, newRunModel(info));
}

test('output chunks are assembled into cards by card id, in order, lines split across chunk boundaries', () => {
  const run = apply([output('a', 'one\ntw'), output('b', '# B\n', 'markdown'), output('a', 'o\nthree'), output('a', '\n')]);
  assert.deepEqual(
    run.cards.map((c) => c.id),
    ['a', 'b'],
  );
  const [a, b] = run.cards;
  assert.deepEqual(a.lines, ['one', 'two', 'three']);
  assert.equal(a.tail, '');
  assert.equal(cardLineCount(a), 3);
  assert.equal(cardText(b), '# B');
  assert.equal(b.kind, 'markdown');
});

test('an unfinished last line is shown as a line of its own', () => {
  const run = apply([output('a', 'done\nhalf')]);
  assert.equal(cardLineCount(run.cards[0]), 2);
  assert.equal(cardLine(run.cards[0], 1), 'half');
});

test('a card’s version changes with every chunk, so views redraw', () => {
  const first = apply([output('a', 'x')]);
  const second = applyRunEvent(first, output('a', 'y'));
  assert.notEqual(first.cards[0].version, second.cards[0].version);
  assert.equal(cardText(second.cards[0]), 'xy');
});

test('an image chunk is one whole picture: never split into lines, and a later chunk is the next frame', () => {
  const first = apply([output('img', 'iVBORw0K\nAAAA', 'image')]);
  assert.equal(first.cards[0].tail, 'iVBORw0K\nAAAA');
  const run = applyRunEvent(first, output('img', 'R0lGODlh', 'image'));
  assert.equal(run.cards[0].tail, 'R0lGODlh');
  assert.equal(run.cards[0].lines.length, 0);
});

test('state, error and ended events update the run; ended marks it complete with the final record', () => {
  let run = apply([{ kind: 'state', state: 'Suspended', cause: 'user', detail: null }]);
  assert.equal(run.info.state, 'Suspended');
  assert.equal(run.stateNote, 'user');
  run = applyRunEvent(run, { kind: 'error', code: 'capability_revoked', message: 'files.write was revoked', hint: null });
  assert.equal(run.errors[0].code, 'capability_revoked');
  run = applyRunEvent(run, { kind: 'ended', run: { ...info, state: 'Terminated', outcome: 'completed', endedAt: 5 } });
  assert.equal(run.complete, true);
  assert.equal(run.info.outcome, 'completed');
});

const tokensOf = (language: Language, line: string, state = '') => highlightLine(language, line, state).tokens;

test('TypeScript: keywords, strings, numbers, comments and types are told apart', () => {
  const tokens = tokensOf('ts', 'export const n: Foo = 42; // the answer');
  assert.deepEqual(
    tokens.filter((t) => t.type !== 'plain' && t.type !== 'punct'),
    [
      { type: 'keyword', text: 'export' },
      { type: 'keyword', text: 'const' },
      { type: 'type', text: 'Foo' },
      { type: 'number', text: '42' },
      { type: 'comment', text: '// the answer' },
    ],
  );
  assert.equal(tokens.map((t) => t.text).join(''), 'export const n: Foo = 42; // the answer');
  assert.deepEqual(tokensOf('ts', 'a = "x\\"y" + `t`').filter((t) => t.type === 'string'), [
    { type: 'string', text: '"x\\"y"' },
    { type: 'string', text: '`t`' },
  ]);
});

test('state carries across lines: block comments and template strings', () => {
  const lines = ['/* start', 'still comment */ let x = `a', 'b` + 1'];
  assert.equal(stateAtLine(lines, 'ts', 1), 'block');
  assert.equal(tokensOf('ts', lines[1], 'block')[0].type, 'comment');
  assert.equal(stateAtLine(lines, 'ts', 2), 'template');
  assert.deepEqual(tokensOf('ts', lines[2], 'template')[0], { type: 'string', text: 'b`' });
});

test('JSON: keys differ from string values; HTML: tags, attributes, comments', () => {
  const json = tokensOf('json', '  "name": "demo", "n": 1, "ok": true');
  assert.deepEqual(
    json.filter((t) => ['key', 'string', 'number', 'literal'].includes(t.type)).map((t) => `${t.type}:${t.text}`),
    ['key:"name"', 'string:"demo"', 'key:"n"', 'number:1', 'key:"ok"', 'literal:true'],
  );
  const html = tokensOf('html', '<a href="x">hi</a><!-- c');
  assert.deepEqual(
    html.map((t) => `${t.type}:${t.text}`),
    ['tag:<a', 'plain: ', 'attr:href', 'punct:=', 'string:"x"', 'tag:>', 'plain:hi', 'tag:</a>', 'comment:<!-- c'],
  );
  assert.equal(highlightLine('html', '<!-- c', '').state, 'comment');
});

test('languages are picked from names and extensions; unknown ones are plain', () => {
  assert.equal(languageOf('typescript'), 'ts');
  assert.equal(languageOf('index.mjs'), 'ts');
  assert.equal(languageOf('json'), 'json');
  assert.equal(languageOf('md'), 'markdown');
  assert.equal(languageOf('cobol'), 'plain');
  assert.equal(languageOf(null), 'plain');
});

test('markdown: blocks and inline parts; HTML in the source stays text', () => {
  const blocks = parseMarkdown('## Title `x`\n\n- one\n- **two**\n\n```ts\nconst a = 1;\n```\n<script>alert(1)</script>');
  assert.deepEqual(
    blocks.map((b) => b.kind),
    ['heading', 'list', 'code', 'paragraph'],
  );
  assert.deepEqual(blocks[0], { kind: 'heading', level: 2, inline: [{ kind: 'text', text: 'Title ' }, { kind: 'code', text: 'x' }] });
  assert.deepEqual(blocks[2], { kind: 'code', language: 'ts', text: 'const a = 1;' });
  assert.deepEqual(blocks[3], { kind: 'paragraph', inline: [{ kind: 'text', text: '<script>alert(1)</script>' }] });
  assert.deepEqual(parseInline('see [docs](https://example.org) *now*'), [
    { kind: 'text', text: 'see ' },
    { kind: 'link', text: 'docs', href: 'https://example.org' },
    { kind: 'text', text: ' ' },
    { kind: 'em', text: 'now' },
  ]);
});

test('diff lines are classified and summarised per file', () => {
  const lines = ['--- /dev/null', '+++ b/demo/package.json', '@@ -0,0 +1,2 @@', '+{', '+}', '--- a/x.ts', '+++ b/x.ts', '@@ -1 +1 @@', '-old', '+new', ' same'];
  assert.deepEqual(lines.map(diffLineKind), ['file', 'file', 'hunk', 'added', 'added', 'file', 'file', 'hunk', 'removed', 'added', 'context']);
  assert.deepEqual(summarizeDiff(lines), { files: ['demo/package.json', 'x.ts'], added: 3, removed: 1 });
});
