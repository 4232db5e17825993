// The ACP card's view model: stored entries folded into prompts, streamed messages, thoughts, tool calls merged by
// id, a plan replaced in place, slash commands, and update kinds the app does not know shown as a line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcpEntry } from '../../../../src-preload/contract';
import { applyEntry, foldEntries, newConversationModel, type ConversationItem } from '../../../../src-renderer/features/acp/conversationModel';
import { markdownText } from '../../../../src-renderer/ui/markdown/markdownStream';

let seq = 0;
const entry = (type: AcpEntry['type'], data: unknown): AcpEntry => ({ seq: ++seq, ts: 0, conversationId: 'acp_abcdefgh', type, data });
const update = (data: object): AcpEntry => entry('update', data);
const chunk = (text: string, kind = 'agent_message_chunk'): AcpEntry => update({ sessionUpdate: kind, content: { type: 'text', text } });
const kinds = (items: ConversationItem[]): string[] => items.map((item) => item.kind);
const message = (item: ConversationItem | undefined): string => (item?.kind === 'message' ? markdownText(item.markdown) : assert.fail(`not a message: ${item?.kind}`));

test('consecutive chunks join into one message; a prompt or a tool call in between starts a new one', () => {
  const model = foldEntries([
    entry('prompt', { text: 'hi' }),
    chunk('thinking '),
    chunk('hard', 'agent_thought_chunk'),
    chunk('Hello'),
    chunk(', **world**'),
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending' }),
    chunk('after'),
    entry('turn', { stopReason: 'end_turn' }),
    chunk('next turn'),
  ]);
  assert.deepEqual(kinds(model.items), ['prompt', 'message', 'thought', 'message', 'tool', 'message', 'turn', 'message']);
  assert.equal(message(model.items[3]), 'Hello, **world**');
  assert.equal(model.items[2].kind === 'thought' && model.items[2].text, 'hard');
  assert.equal(message(model.items[7]), 'next turn');
});

test('tool_call_update merges into its tool call by id: fields it carries replace, the rest stay', () => {
  const model = foldEntries([
    update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write a.txt', kind: 'edit', status: 'pending', locations: [{ path: '/w/a.txt' }] }),
    chunk('between'),
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'x' }, { type: 'content', content: { type: 'text', text: 'ok' } }, { type: 'terminal', terminalId: 'term-1' }] }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'failed' }),
  ]);
  assert.deepEqual(kinds(model.items), ['tool', 'message', 'tool']);
  const first = model.items[0];
  assert.ok(first.kind === 'tool');
  assert.equal(first.call.title, 'Write a.txt');
  assert.equal(first.call.kind, 'edit');
  assert.equal(first.call.status, 'completed');
  assert.deepEqual(first.call.locations, [{ path: '/w/a.txt', line: null }]);
  assert.deepEqual(first.call.content, [
    { type: 'diff', path: '/w/a.txt', oldText: null, newText: 'x' },
    { type: 'text', text: 'ok' },
    { type: 'terminal', terminalId: 'term-1' },
  ]);
  // An update for a call never announced still shows.
  assert.ok(model.items[2].kind === 'tool' && model.items[2].call.status === 'failed');
});

test('each plan replaces the last one in place; commands are kept; record-only kinds add no item', () => {
  const model = foldEntries([
    update({ sessionUpdate: 'plan', entries: [{ content: 'a', status: 'pending', priority: 'high' }] }),
    chunk('working'),
    update({ sessionUpdate: 'plan', entries: [{ content: 'a', status: 'completed', priority: 'high' }, { content: 'b', status: 'in_progress', priority: 'low' }] }),
    update({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review', input: { hint: 'what' } }, { description: 'nameless' }] }),
    update({ sessionUpdate: 'usage_update', used: 1, size: 2 }),
    update({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }),
  ]);
  assert.deepEqual(kinds(model.items), ['plan', 'message']);
  assert.ok(model.items[0].kind === 'plan');
  assert.deepEqual(model.items[0].entries.map((e) => `${e.content}:${e.status}:${e.priority}`), ['a:completed:high', 'b:in_progress:low']);
  assert.deepEqual(model.commands, [{ name: 'review', description: 'Review', hint: 'what' }]);
});

test('unknown kinds, malformed updates, errors and notices become lines; status entries are not items', () => {
  const model = foldEntries([
    update({ sessionUpdate: 'mystery_update', anything: 1 }),
    entry('update', 'not an object'),
    update({ content: 'no kind' }),
    entry('error', { code: 'ACP_AGENT_CRASHED', message: 'exit 3' }),
    entry('notice', { text: 'agent said something' }),
    entry('status', { status: 'ready' }),
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: '', mimeType: 'image/png' } }),
  ]);
  assert.deepEqual(kinds(model.items), ['other', 'other', 'other', 'error', 'notice', 'message']);
  assert.ok(model.items[0].kind === 'other' && model.items[0].label === 'mystery_update' && model.items[0].summary === 'anything');
  assert.ok(model.items[3].kind === 'error' && model.items[3].code === 'ACP_AGENT_CRASHED');
  assert.equal(message(model.items[5]), '[image]');
});

test('entries already folded in are skipped (a new subscription after a reconnection replays none twice)', () => {
  const first = [chunk('a'), chunk('b')];
  const model = newConversationModel();
  for (const e of first) applyEntry(model, e);
  for (const e of [...first, chunk('c')]) applyEntry(model, e);
  assert.equal(message(model.items[0]), 'abc');
  assert.equal(model.lastSeq, seq);
});

test('a changed item is a new object, the unchanged ones keep their identity', () => {
  const model = foldEntries([entry('prompt', { text: 'p' }), chunk('a')]);
  const [prompt, reply] = model.items;
  applyEntry(model, chunk('b'));
  assert.equal(model.items[0], prompt);
  assert.notEqual(model.items[1], reply);
});

test('a flood of 10,000 chunks folds fast into one message, its finished blocks cut at blank lines', () => {
  const model = newConversationModel();
  const started = performance.now();
  for (let i = 0; i < 10_000; i++) applyEntry(model, chunk(i % 10 === 9 ? `word ${i}\n\n` : `word ${i} `));
  const elapsed = performance.now() - started;
  assert.equal(model.items.length, 1);
  const item = model.items[0];
  assert.ok(item.kind === 'message');
  assert.equal(item.markdown.blocks.length, 1000);
  assert.ok(elapsed < 1000, `folding took ${elapsed} ms`);
});
