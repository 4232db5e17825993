// Integration: whole headless turns of the REAL CLIs against the local mock providers (test/mockProviders), built
// only from buildProcessInvocationSpec and its harness home. A new turn reports the continuation key; resuming
// with that key sends the earlier conversation (first prompt and first answer) to the model again, which is what
// "the conversation continues" means to a user. The stand-in key given in request.env is the one the mock receives.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, isUuid } from '../../src-main/node/harness';
import { conversationOf, lastUserText, startMockProvider } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, codex, runHeadless, skipWithoutClis as skip } from './realClis';

const standInKey = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** [role, text] pairs of a turn's conversation, without system/developer context. */
const dialogue = (turns: { role: string; text: string }[]) => turns.filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => [t.role, t.text]);

test('real Claude Code, headless against the Anthropic mock: the session id is the key, and --resume sends the first exchange back', { skip }, async (t) => {
  const mock = await startMockProvider('anthropic');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const apiKey = standInKey('sk-ant-standin-');
  const env = { ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: mock.baseUrl };

  const first = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env }), { executable: claude, prompt: 'remember the word pelican' });
  const key = first.spec.continuation?.key;
  assert.ok(key && isUuid(key));
  const run1 = await runHeadless(first.spec, baseEnv(home));
  assert.equal(run1.code, 0, run1.stderr);
  const init = run1.events.find((e) => e.type === 'system' && e.subtype === 'init');
  assert.equal(init?.session_id, key, 'the key announced before the turn is the session the CLI reports');
  const result1 = run1.events.find((e) => e.type === 'result');
  assert.equal(result1?.result, 'mock reply to: remember the word pelican');
  assert.equal(result1?.session_id, key);
  assert.equal(mock.turns().length, 1);
  assert.equal(mock.turns()[0].apiKey, apiKey, 'the stand-in key from request.env reached the API');
  assert.deepEqual(dialogue(conversationOf(mock.turns()[0])).map(([role]) => role), ['user']);

  // Resumed from the original cwd with the stored key (as the host does after a restart).
  const second = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env, continuation: first.spec.continuation }), {
    executable: claude,
    prompt: 'which word?',
    originCwd: dirs.workspace,
  });
  assert.deepEqual(second.spec.continuation, { provider: 'anthropic', key });
  assert.ok(second.spec.argv.includes('--resume'));
  const run2 = await runHeadless(second.spec, baseEnv(home));
  assert.equal(run2.code, 0, run2.stderr);
  assert.equal(run2.events.find((e) => e.type === 'result')?.result, 'mock reply to: which word?');
  const resumed = mock.turns().at(-1)!;
  assert.equal(lastUserText(resumed), 'which word?');
  const texts = dialogue(conversationOf(resumed));
  const said = (role: string, text: string) => texts.some(([r, x]) => r === role && x.includes(text));
  assert.ok(said('user', 'remember the word pelican'), `the first prompt is in the resumed request: ${JSON.stringify(texts).slice(0, 1500)}`);
  assert.ok(said('assistant', 'mock reply to: remember the word pelican'), 'the first answer is in the resumed request');
  assert.equal(run2.events.find((e) => e.type === 'result')?.session_id, key, 'the resumed turn continues under the same key');
  assert.deepEqual(mock.unhandled(), [], 'Claude Code called nothing the mock lacks');
});

test('real Codex, headless against the Responses mock through the harness home provider: thread id is the key, resume sends the first exchange back, a non-UUID key is refused', { skip }, async (t) => {
  const mock = await startMockProvider('openai');
  t.after(() => mock.close());
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const apiKey = standInKey('sk-openai-standin-');
  const env = { OPENAI_API_KEY: apiKey };
  const options = { executable: codex, openaiEndpoint: { baseUrl: mock.baseUrl } };

  const first = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env }), { ...options, prompt: 'remember the word pelican' });
  assert.deepEqual(first.spec.continuation, { provider: 'openai' }, 'no key before Codex reports one');
  const run1 = await runHeadless(first.spec, baseEnv(home));
  assert.equal(run1.code, 0, run1.stderr);
  const threadId = run1.events.find((e) => e.type === 'thread.started')?.thread_id;
  assert.ok(typeof threadId === 'string' && isUuid(threadId), `thread id ${String(threadId)} is a UUID`);
  const answer = (events: typeof run1.events) =>
    events.map((e) => e.item as { type?: string; text?: string } | undefined).find((item) => item?.type === 'agent_message')?.text;
  assert.equal(answer(run1.events), 'mock reply to: remember the word pelican');
  assert.equal(mock.turns()[0].apiKey, apiKey, 'the stand-in key named by the provider reached the API');

  const continuation = { provider: 'openai' as const, key: threadId };
  const second = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env, continuation }), { ...options, prompt: 'which word?' });
  const run2 = await runHeadless(second.spec, baseEnv(home));
  assert.equal(run2.code, 0, run2.stderr);
  assert.equal(answer(run2.events), 'mock reply to: which word?');
  const resumed = mock.turns().at(-1)!;
  assert.equal(lastUserText(resumed), 'which word?');
  const texts = dialogue(conversationOf(resumed));
  assert.ok(texts.some(([r, x]) => r === 'user' && x.includes('remember the word pelican')), `the first prompt is in the resumed request: ${JSON.stringify(texts).slice(0, 1500)}`);
  assert.ok(texts.some(([r, x]) => r === 'assistant' && x === 'mock reply to: remember the word pelican'), 'the first answer is in the resumed request');
  const restarted = run2.events.find((e) => e.type === 'thread.started')?.thread_id;
  assert.equal(restarted, threadId, 'the resumed run continues the same thread');

  // A thread *name* would make `codex exec resume` start a new, empty thread: refused before anything runs.
  const sent = mock.requests.length;
  assert.throws(
    () => buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env, continuation: { provider: 'openai', key: 'my-thread' } }), { ...options, prompt: 'x' }),
    { code: 'HARNESS_BAD_CONTINUATION_KEY' },
  );
  assert.equal(mock.requests.length, sent);
  assert.deepEqual(mock.unhandled(), [], 'Codex called nothing the mock lacks');
});

test('a provider error ends a headless turn of either CLI with the provider message, without a retry storm', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  // 500 with x-should-retry: false (the Anthropic SDK obeys it); Codex retries every 5xx, so it gets a 400.
  const anthropic = await startMockProvider('anthropic', { script: () => ({ error: { status: 500, message: 'mock overloaded' } }) });
  const openai = await startMockProvider('openai', { script: () => ({ error: { status: 400, message: 'mock rejected the request' } }) });
  t.after(() => Promise.all([anthropic.close(), openai.close()]));

  const claudeSpec = buildProcessInvocationSpec(
    request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { ANTHROPIC_API_KEY: standInKey('sk-ant-'), ANTHROPIC_BASE_URL: anthropic.baseUrl } }),
    { executable: claude, prompt: 'hi' },
  ).spec;
  const claudeRun = await runHeadless(claudeSpec, baseEnv(home));
  assert.equal(claudeRun.code, 1);
  const result = claudeRun.events.find((e) => e.type === 'result');
  assert.equal(result?.is_error, true);
  assert.match(String(result?.result), /API Error: 500 mock overloaded/);
  assert.equal(anthropic.turns().length, 1, 'not retried');

  const codexSpec = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { OPENAI_API_KEY: standInKey('sk-') } }), {
    executable: codex,
    openaiEndpoint: { baseUrl: openai.baseUrl },
    prompt: 'hi',
  }).spec;
  const codexRun = await runHeadless(codexSpec, baseEnv(home));
  assert.equal(codexRun.code, 1);
  const failed = codexRun.events.find((e) => e.type === 'turn.failed')?.error as { message?: string } | undefined;
  assert.match(String(failed?.message), /mock rejected the request/);
  assert.equal(openai.turns().length, 1, 'not retried');
});
