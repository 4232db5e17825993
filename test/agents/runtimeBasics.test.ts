import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardKindOf } from '../../src-main/node/agents/runtime/cardKind';
import { IllegalTransitionError, Lifecycle, type StateChange } from '../../src-main/node/agents/runtime/lifecycle';
import { AgentEventError, parseAgentEvent } from '../../src-main/node/agents/runtime/parseAgentEvent';
import { TokenBucket } from '../../src-main/node/agents/runtime/tokenBucket';

test('lifecycle: Registered → Initialized → Active ⇄ Suspended → Terminated; anything else is refused and says what is allowed', () => {
  const life = new Lifecycle();
  const seen: StateChange[] = [];
  life.onDidChange((change) => seen.push(change));
  assert.throws(() => life.move('Active', 'host'), (error: Error) => error instanceof IllegalTransitionError && /from Registered to Active \(from Registered it can go to Initialized or Terminated\)/.test(error.message));
  life.move('Initialized', 'host');
  life.move('Active', 'host');
  life.move('Suspended', 'resource_limit', 'cpu budget');
  assert.throws(() => life.move('Initialized', 'user'), IllegalTransitionError);
  life.move('Active', 'user');
  life.move('Terminated', 'completed');
  assert.throws(() => life.move('Active', 'user'), /Terminated is final/);
  assert.deepEqual(
    seen.map((c) => `${c.from}>${c.to}:${c.cause}`),
    ['Registered>Initialized:host', 'Initialized>Active:host', 'Active>Suspended:resource_limit', 'Suspended>Active:user', 'Active>Terminated:completed'],
  );
});

test('events: every type of protocol v0.1 parses; another schema_version or a wrong field is refused with a hint', () => {
  const v = { schema_version: '0.1' };
  const good = [
    { ...v, type: 'input', agent_id: 'a', prompt: 'hi', context_refs: [] },
    { ...v, type: 'output', agent_id: 'a', chunk_id: 'c1', content_type: 'text/markdown', data: '# hi' },
    { ...v, type: 'artifact', id: 'x', kind: 'file', path: 'out/a.txt', preview_hint: null },
    { ...v, type: 'consent_request', capability: 'network', reason: 'fetch the issue', duration_s: 600 },
    { ...v, type: 'consent_grant', capability: 'network', expires_at: 1_800_000_000_000 },
    { ...v, type: 'consent_revoke', capability: 'network', expires_at: null },
    { ...v, type: 'error', code: 'not_found', message: 'no such file', hint: null },
    { ...v, type: 'state_update', key: 'progress', value: { done: 3 }, scope: 'session' },
  ];
  for (const event of good) assert.equal(parseAgentEvent(event).type, event.type);
  assert.throws(() => parseAgentEvent({ ...good[1], schema_version: '0.2' }), (e: Error) => e instanceof AgentEventError && e.code === 'unsupported_schema_version' && /speaks event protocol 0\.1/.test(e.message));
  assert.throws(() => parseAgentEvent({ type: 'output' }), /has no schema_version/);
  assert.throws(() => parseAgentEvent({ ...good[3], duration_s: -5 }), (e: Error) => e instanceof AgentEventError && e.code === 'invalid_event' && /duration_s/.test(e.message));
  assert.throws(() => parseAgentEvent({ ...v, type: 'telepathy' }), (e: Error) => e instanceof AgentEventError && e.code === 'invalid_event');
  assert.throws(() => parseAgentEvent('output'), /must be a JSON object/);
});

test('token bucket: a burst passes at once, a flood is spread out at the rate, time refills it', () => {
  let now = 0;
  const bucket = new TokenBucket(100, 10, () => now);
  for (let i = 0; i < 10; i++) assert.equal(bucket.take(1), 0);
  assert.equal(bucket.take(1), 10); // one over the burst: wait 1/100 s
  assert.equal(bucket.take(4), 50);
  now += 50;
  assert.equal(bucket.take(1), 10);
  now += 10_000;
  assert.equal(bucket.take(10), 0, 'refilled, but never above the burst');
  assert.ok(bucket.take(1) > 0);
  // A chunk bigger than the burst is delayed, never refused.
  assert.equal(new TokenBucket(100, 10, () => 0).take(30), 200);
});

test('cards: the content type (and the ui hints) choose the card', () => {
  assert.deepEqual(cardKindOf('text/markdown'), { kind: 'markdown', language: null });
  assert.deepEqual(cardKindOf('text/x-diff'), { kind: 'diff', language: null });
  assert.deepEqual(cardKindOf('text/x-patch'), { kind: 'diff', language: null });
  assert.deepEqual(cardKindOf('image/png'), { kind: 'image', language: null });
  assert.deepEqual(cardKindOf('text/x-log'), { kind: 'log', language: null });
  assert.deepEqual(cardKindOf('text/x-code; lang=TypeScript'), { kind: 'code', language: 'typescript' });
  assert.deepEqual(cardKindOf('text/plain'), { kind: 'text', language: null });
  assert.deepEqual(cardKindOf('text/plain', ['log']), { kind: 'log', language: null });
});
