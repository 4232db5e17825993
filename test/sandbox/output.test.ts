import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callingGuest } from './guests';
import { AGENT, invokeInput, sandboxHarness, SESSION } from './harness';

describe('a WASM agent in its own process: output, KV, scratchpad, consent', () => {
  let h: ReturnType<typeof sandboxHarness>;
  before(() => (h = sandboxHarness()));
  after(() => h.cleanup());

  it('streams output chunks and keeps per-agent memory only with a grant', async () => {
    const guest = callingGuest([
      { fn: 'output', req: { content_type: 'text/markdown', data: '# hello', chunk_id: 'c1' } },
      { fn: 'kv_set', req: { key: 'k', value: 'v1' } },
      { fn: 'scratch_set', req: { key: 'shared', value: 'note' } },
      { fn: 'scratch_get', req: { key: 'shared' } },
    ]);
    const { agent, responses } = await h.run(guest, ['memory'], h.dir);
    const chunks: unknown[] = [];
    agent.calls.onOutput((c) => chunks.push(c));
    await agent.invoke(invokeInput());
    assert.deepEqual(chunks, [{ contentType: 'text/markdown', data: '# hello', chunkId: 'c1' }]);
    assert.equal(responses[0].ok, true);
    assert.equal(responses[1].ok, false, 'memory is declared but not granted: kv_set is denied');
    assert.equal(!responses[1].ok && responses[1].error.code, 'capability_denied');
    assert.deepEqual(responses[3], { ok: true, value: 'note' });
    await agent.shutdown();
    assert.equal(agent.state, 'terminated');
  });

  it('reads its KV back once memory is granted, and asks consent through the engine', async () => {
    h.consent.grant(AGENT, SESSION, 'memory');
    h.consent.answers.set('files.read', 'allow');
    const guest = callingGuest([
      { fn: 'kv_set', req: { key: 'k', value: 'v2' } },
      { fn: 'kv_get', req: { key: 'k' } },
      { fn: 'consent', req: { capability: 'files.read', reason: 'to read your notes', duration_s: 600 } },
      { fn: 'consent', req: { capability: 'network', reason: 'not declared', duration_s: 60 } },
    ]);
    const { agent, responses } = await h.run(guest, ['memory', 'files.read'], h.dir);
    await agent.invoke(invokeInput());
    assert.deepEqual(responses[1], { ok: true, value: 'v2' });
    assert.equal(responses[2].ok && responses[2].granted, true);
    assert.equal(typeof (responses[2].ok && responses[2].expires_at), 'number');
    assert.equal(h.consent.asked[0].reason, 'to read your notes');
    assert.equal(!responses[3].ok && responses[3].error.code, 'not_declared');
    agent.kill();
  });
});

describe('the warm pool', () => {
  it('hands out pre-started processes and starts their replacements', async () => {
    const { WarmPool } = await import('../../src-main/node/sandbox/wasm/warmPool');
    const pool = new WarmPool(1);
    try {
      await pool.whenWarm();
      const first = await pool.take();
      assert.equal(first.warm, true);
      first.child.kill();
      await pool.whenWarm();
      const second = await pool.take();
      assert.equal(second.warm, true);
      second.child.kill();
    } finally {
      pool.dispose();
    }
  });
});
