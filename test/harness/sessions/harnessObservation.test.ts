// How the host reads a conversation id the CLIs report: headless JSON events (Claude Code's session_id, Codex's
// thread.started), the interactive Codex TUI's rollout file and the interactive Claude Code TUI's transcript. Only a
// UUID counts; a file counts only when the id in its name is the id it records, it records our cwd, it is new since
// the launch and no other session owns it.
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findClaudeSession } from '../../../src-main/node/harness/sessions/claudeSessionWatch';
import { findNewThread } from '../../../src-main/node/harness/sessions/codexThreadWatch';
import { parseHarnessLine } from '../../../src-main/node/harness/sessions/harnessEventParsing';
import { tempDir } from '../../helpers';

const A = '0199a213-81c0-7800-8aa1-bbab2a035a53';
const B = '0199a213-81c0-7800-8aa1-bbab2a035a54';

test('headless events: the reported id is taken only when it is a UUID; text and events become output items', () => {
  const init = parseHarnessLine('claude-code', JSON.stringify({ type: 'system', subtype: 'init', session_id: A, cwd: '/w', model: 'm' }));
  assert.equal(init.reportedKey, A);
  assert.deepEqual(init.outputs, [{ type: 'event', kind: 'init', summary: `session ${A} in /w (model m)` }]);
  assert.equal(parseHarnessLine('claude-code', JSON.stringify({ type: 'system', subtype: 'init', session_id: 'my-session' })).reportedKey, undefined);
  assert.deepEqual(parseHarnessLine('claude-code', JSON.stringify({ type: 'assistant', session_id: A, message: { content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] } })).outputs, [
    { type: 'text', text: 'hi' },
    { type: 'event', kind: 'tool_use', summary: 'Bash {"command":"ls"}' },
  ]);
  assert.deepEqual(parseHarnessLine('claude-code', JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, result: 'too many turns' })).outputs, [{ type: 'event', kind: 'error', summary: 'too many turns' }]);

  assert.equal(parseHarnessLine('codex-cli', JSON.stringify({ type: 'thread.started', thread_id: A })).reportedKey, A);
  assert.equal(parseHarnessLine('codex-cli', JSON.stringify({ type: 'thread.started', thread_id: 'not-a-thread' })).reportedKey, undefined);
  assert.deepEqual(parseHarnessLine('codex-cli', JSON.stringify({ type: 'item.completed', item: { type: 'agent_message', text: 'done' } })).outputs, [{ type: 'text', text: 'done' }]);
  assert.deepEqual(parseHarnessLine('codex-cli', JSON.stringify({ type: 'turn.failed', error: { message: 'quota' } })).outputs, [{ type: 'event', kind: 'error', summary: 'quota' }]);
  assert.deepEqual(parseHarnessLine('codex-cli', 'Reading additional input from stdin...').outputs, [{ type: 'log', text: 'Reading additional input from stdin...' }]);
});

test("a Codex rollout file gives the thread id only when its name and its record agree, it is ours and it is new", (t) => {
  const home = tempDir('codex-home');
  t.after(home.cleanup);
  const day = join(home.path, 'sessions', '2026', '11', '23');
  mkdirSync(day, { recursive: true });
  const rollout = (id: string, recorded: string, cwd: string) =>
    writeFileSync(join(day, `rollout-2026-11-23T16-00-00-${id}.jsonl`), `${JSON.stringify({ type: 'session_meta', payload: { id: recorded, cwd, instructions: 'x'.repeat(100_000) } })}\n`);
  const since = Date.now();
  const none = () => false;

  rollout(A, B, '/work'); // the name and the record disagree
  assert.equal(findNewThread(join(home.path, 'sessions'), '/work', since, none), undefined);
  rollout(A, A, '/elsewhere'); // another folder's session
  assert.equal(findNewThread(join(home.path, 'sessions'), '/work', since, none), undefined);
  rollout(A, A, '/work');
  assert.equal(findNewThread(join(home.path, 'sessions'), '/work', since, none), A);
  // Owned by another stored session: not this one's.
  assert.equal(findNewThread(join(home.path, 'sessions'), '/work', since, (key) => key === A), undefined);
  // Older than the launch: an earlier conversation, not this one.
  const old = new Date(since - 60_000);
  utimesSync(join(day, `rollout-2026-11-23T16-00-00-${A}.jsonl`), old, old);
  assert.equal(findNewThread(join(home.path, 'sessions'), '/work', since, none), undefined);
});

test('a Claude Code transcript confirms the id the TUI was started with, or names the conversation it went on in instead', (t) => {
  const config = tempDir('claude-config');
  t.after(config.cleanup);
  const project = join(config.path, 'projects', '-work');
  mkdirSync(project, { recursive: true });
  const transcript = (name: string, recorded: string, cwd: string) =>
    writeFileSync(
      join(project, `${name}.jsonl`),
      [{ type: 'queue-operation', sessionId: recorded }, { type: 'user', sessionId: recorded, cwd, message: { role: 'user', content: 'hi' } }].map((r) => JSON.stringify(r)).join('\n'),
    );
  const since = Date.now();
  const none = () => false;

  assert.equal(findClaudeSession(config.path, '/work', A, since, none), undefined, 'nothing written yet');
  transcript(B, A, '/work'); // a file whose name and record disagree counts for nothing
  assert.equal(findClaudeSession(config.path, '/work', A, since, none), undefined);
  transcript(B, B, '/elsewhere');
  assert.equal(findClaudeSession(config.path, '/work', A, since, none), undefined);
  transcript(B, B, '/work');
  assert.deepEqual(findClaudeSession(config.path, '/work', A, since, none), { kind: 'other', key: B });
  assert.equal(findClaudeSession(config.path, '/work', A, since, (key) => key === B), undefined, 'owned by another stored session');
  transcript(A, A, '/work');
  assert.deepEqual(findClaudeSession(config.path, '/work', A, since, none), { kind: 'confirmed' });
});
