// Model-backed agents through the real host: spawn_agent (and agent.start) → AgentRuntime → the agent's API client →
// the credential proxy (dummy key) → the mock provider servers (real key). The real keychain runs in a private
// gnome-keyring; the consent engine, the ledger and SQLite are the host's own.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordedRequest } from '../mockProviders';
import { lastUserText } from '../mockProviders';
import { waitFor } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { cards, startLlmHost, type LlmHost, type ProviderId } from './llmHost';
import { startSlowAnthropic, type SlowAnthropic } from './slowAnthropic';

type Body = Record<string, unknown>;

/** What each API's request carries, read back from the mock's record. */
function sent(provider: ProviderId, request: RecordedRequest): { model: unknown; system: unknown; user: unknown; maxTokens: unknown } {
  const body = request.body as Body;
  if (provider === 'anthropic') return { model: body.model, system: body.system, user: (body.messages as Body[])[0].content, maxTokens: body.max_tokens };
  if (provider === 'openai') return { model: body.model, system: body.instructions, user: (body.input as Body[])[0].content, maxTokens: body.max_output_tokens };
  const messages = body.messages as Body[];
  return { model: body.model, system: messages[0].content, user: messages[1].content, maxTokens: body.max_tokens };
}

const USAGE = { inputTokens: 31, outputTokens: 9 };
const replyTo = (request: RecordedRequest) => ({ text: `The answer to "${lastUserText(request)}" is forty-two, streamed.`, usage: USAGE });

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 180_000);
} else {
  describe('model-backed agents', () => {
    let host: LlmHost;
    let slow: SlowAnthropic;
    const slowKey = 'sk-ant-api03-slow-' + 'k'.repeat(40);
    before(async () => {
      slow = await startSlowAnthropic('anthropic-slow', 'The first half, ', 'then the rest.');
      host = await startLlmHost({ anthropic: replyTo, openai: replyTo, 'openai-compatible': replyTo }, [slow.provider]);
      await host.client.call('credentials.addApiKey', { provider: 'anthropic-slow', apiKey: slowKey });
      // Another provider id: the agent names its API and its models itself (no built-in defaults for it).
      host.installAgent('slow-writer', 'anthropic-slow', 'provider = "anthropic-slow"\napi = "anthropic-messages"\n[models]\nfast = "claude-slow"\nsmart = "claude-slow"\n');
      host.installAgent('claude-writer', 'anthropic', 'provider = "anthropic"\nsystem_prompt = "You write briefly."\n');
      host.installAgent('gpt-writer', 'openai');
      host.installAgent('local-writer', 'openai-compatible');
      // The local server's models are the user's to name: per connection in llm-models.json.
      writeFileSync(join(host.home, 'llm-models.json'), JSON.stringify({ connections: { [host.connectionIds['openai-compatible']]: { fast: 'llama3.2:3b', smart: 'qwen2.5:32b' } } }));
      for (const [agent, provider] of [['claude-writer', 'anthropic'], ['gpt-writer', 'openai'], ['local-writer', 'openai-compatible']]) host.grant(agent, provider);
    });
    after(async () => {
      await host.close();
      await slow.close();
    });

    const apis: [string, ProviderId, { fast: string; smart: string }][] = [
      ['claude-writer', 'anthropic', { fast: 'claude-haiku-4-5', smart: 'claude-sonnet-4-5' }],
      ['gpt-writer', 'openai', { fast: 'gpt-5-mini', smart: 'gpt-5' }],
      ['local-writer', 'openai-compatible', { fast: 'llama3.2:3b', smart: 'qwen2.5:32b' }],
    ];
    for (const [agent, provider, models] of apis) {
      it(`${provider}: streams into the run's card, counts the provider's tokens, maps fast/smart; the provider gets the real key, nothing the run shows holds it`, async () => {
        const mock = host.mocks[provider];
        const before = mock.turns().length;
        const fast = await host.spawn(agent, 'Answer in one line.', 'What is six times seven?', { model_hint: 'fast', max_tokens: 256 });
        assert.equal(fast.status, 'success', fast.data);
        assert.equal(fast.data, 'The answer to "What is six times seven?" is forty-two, streamed.');
        assert.equal(fast.metadata.tokens_used, USAGE.inputTokens + USAGE.outputTokens);

        const { info, events } = await host.lastRun();
        assert.equal(info.outcome, 'completed');
        // (That it shows while still streaming is the mid-stream test's; the feed joins pieces that arrive together.)
        const card = cards(events);
        assert.equal(card.main.join(''), fast.data);
        assert.deepEqual(card.mainKinds, ['markdown']);
        assert.match(card.log, new RegExp(`model ${models.fast.replace(/\./g, '\\.')} \\(fast, from `));
        assert.match(card.log, /tokens: 31 in, 9 out/);

        const smart = await host.spawn(agent, 'Answer in one line.', 'And seven times six?', { model_hint: 'smart' });
        assert.equal(smart.status, 'success', smart.data);
        const turns = mock.turns().slice(before);
        assert.equal(turns.length, 2);
        assert.deepEqual(sent(provider, turns[0]), { model: models.fast, system: 'Answer in one line.', user: 'What is six times seven?', maxTokens: 256 });
        assert.deepEqual(sent(provider, turns[1]), { model: models.smart, system: 'Answer in one line.', user: 'And seven times six?', maxTokens: 4096 });
        for (const turn of turns) {
          assert.ok(turn.apiKey === host.keys[provider], 'the provider received the real key (the proxy swapped it in)');
          assert.ok(!JSON.stringify(turn.headers).includes('omni-proxy-'), 'the dummy key never reaches the provider');
        }
        // Nothing the run produced (its cards, its log), nor the ledger, holds the key.
        assert.ok(!JSON.stringify(events).includes(host.keys[provider]));
        const ledger = await host.ledgerText();
        assert.ok(!ledger.includes(host.keys[provider]));
        // Each call's cost is in the ledger: model, hint and the provider's counts.
        const usage = (await host.client.call('ledger.list', { sessionId: host.sessionId, limit: 1000 })).filter((e) => e.type === 'agent.model_usage').map((e) => e.payload as Record<string, unknown>);
        for (const hint of ['fast', 'smart'] as const) {
          const entry = usage.find((u) => u.provider === provider && u.model === models[hint]);
          assert.deepEqual([entry?.hint, entry?.inputTokens, entry?.outputTokens], [hint, 31, 9], JSON.stringify(usage));
        }
      });
    }

    it('a start from the Agents view asks for the connection on a card; the agent\'s own system prompt and hint apply; a denial fails clearly and calls nothing', async () => {
      const allowed = await host.newSession();
      const asked = await host.answerCards({ kind: 'allow_for', minutes: 5 }, allowed);
      const before = host.mocks.anthropic.turns().length;
      await host.client.call('agent.start', { sessionId: allowed, agent: 'claude-writer', prompt: 'Say hi' });
      const run = await host.lastRun(allowed);
      assert.equal(run.info.outcome, 'completed', JSON.stringify(run.info.error));
      assert.deepEqual(asked, ['oauth:anthropic.api']);
      assert.equal(cards(run.events).main.join(''), 'The answer to "Say hi" is forty-two, streamed.');
      const turn = host.mocks.anthropic.turns()[before];
      assert.deepEqual(sent('anthropic', turn), { model: 'claude-sonnet-4-5', system: 'You write briefly.', user: 'Say hi', maxTokens: 4096 });

      const denied = await host.newSession();
      await host.answerCards({ kind: 'deny' }, denied);
      await host.client.call('agent.start', { sessionId: denied, agent: 'claude-writer', prompt: 'Say hi' });
      const refused = await host.lastRun(denied);
      assert.equal(refused.info.outcome, 'failed');
      assert.equal(refused.info.error?.code, 'connection_unavailable');
      assert.match(refused.info.error?.message ?? '', /cannot reach anthropic: oauth:anthropic\.api not granted/);
      assert.match(refused.info.error?.hint ?? '', /allow oauth:anthropic\.api/);
      assert.equal(host.mocks.anthropic.turns().length, before + 1, 'nothing was sent without the grant');

      // "Allow once" is for one run: see llmAllowOnce.test.ts.
    });

    it('llm-models.json applies at the next run; a broken one fails the run naming the file and the key, before any call', async () => {
      const file = join(host.home, 'llm-models.json');
      const local = { [host.connectionIds['openai-compatible']]: { fast: 'llama3.2:3b', smart: 'qwen2.5:32b' } };
      try {
        writeFileSync(file, JSON.stringify({ providers: { anthropic: { fast: 'claude-opus-4-1' } }, connections: local }));
        const before = host.mocks.anthropic.turns().length;
        assert.equal((await host.spawn('claude-writer', '', 'hi', { model_hint: 'fast' })).status, 'success');
        assert.equal((host.mocks.anthropic.turns()[before].body as Body).model, 'claude-opus-4-1');

        writeFileSync(file, JSON.stringify({ providers: { anthropic: { fast: 'two words' } } }));
        const broken = await host.spawn('claude-writer', '', 'hi', { model_hint: 'fast' });
        assert.equal(broken.status, 'error');
        assert.ok(broken.data.includes(`(llm_config): ${file}: providers.anthropic.fast: expected a model name`), broken.data);
        assert.equal(host.mocks.anthropic.turns().length, before + 1);
      } finally {
        writeFileSync(file, JSON.stringify({ connections: local }));
      }
    });

    it('a definition naming a provider the manifest does not declare fails clearly, naming manifest.toml and the capability to add', async () => {
      host.installAgent('mismatched', 'anthropic', 'provider = "openai"\n');
      const response = await host.spawn('mismatched', '', 'hi');
      assert.equal(response.status, 'error');
      assert.match(response.data, /\(llm_config\): \S+mismatched\/manifest\.toml: capabilities: the agent talks to openai \(agent\.llm\.toml\) but does not declare oauth:openai\.api/);
    });

    it('provider errors end the run with a typed error saying what to do: 401, 429, 500, an unknown model', async () => {
      const cases: [number, string, string, RegExp][] = [
        [401, 'authentication_error', 'provider_unauthorized', /check the anthropic connection in Connections/],
        [429, 'rate_limit_error', 'provider_rate_limited', /wait/],
        [500, 'api_error', 'provider_unavailable', /on its side/],
        [404, 'not_found_error', 'provider_bad_request', /model names in llm-models\.json/],
      ];
      try {
        for (const [status, type, code, hint] of cases) {
          host.mocks.anthropic.setScript(() => ({ error: { status, type, message: `mock ${type}` } }));
          const response = await host.spawn('claude-writer', '', 'hi');
          assert.equal(response.status, 'error');
          assert.ok(response.data.includes(`(${code}): anthropic`) && response.data.includes(`HTTP ${status}`) && response.data.includes(`mock ${type}`), response.data);
          const { info } = await host.lastRun();
          assert.equal(info.error?.code, code);
          assert.match(info.error?.hint ?? '', hint);
          assert.equal(response.metadata.tokens_used, 0);
        }
      } finally {
        host.mocks.anthropic.setScript(replyTo);
      }
    });

    it('revoking the grant while the call is in flight stops the agent with credential_revoked; the next run asks again', async () => {
      const session = await host.newSession();
      const grantId = host.grant('claude-writer', 'anthropic', session);
      let arrived!: () => void;
      const inFlight = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      host.mocks.anthropic.setScript(async (request) => {
        arrived();
        await new Promise<void>((resolve) => (release = resolve));
        return replyTo(request);
      });
      try {
        const response = host.spawn('claude-writer', '', 'a long question', {}, session);
        await inFlight;
        host.server.services.consent.revoke(grantId, 'user');
        const ended = await response;
        assert.equal(ended.status, 'error');
        assert.match(ended.data, /\(credential_revoked\): the connection can no longer be used/);
        const { info } = await host.lastRun(session);
        assert.equal(info.error?.code, 'credential_revoked');
        assert.match(info.error?.hint ?? '', /grant the agent the connection again/);
      } finally {
        release?.();
        host.mocks.anthropic.setScript(replyTo);
      }
      const asked = await host.answerCards({ kind: 'deny' }, session);
      const again = await host.spawn('claude-writer', '', 'hi', {}, session);
      assert.equal(again.status, 'error');
      assert.match(again.data, /connection_unavailable/);
      assert.deepEqual(asked, ['oauth:anthropic.api']);
    });

    it('text shows on the card while the model is still answering; a revocation mid-stream cuts it with credential_revoked, keeping what came', async () => {
      const session = await host.newSession();
      const grantId = host.grant('slow-writer', 'anthropic-slow', session);
      const response = host.spawn('slow-writer', '', 'write a lot', {}, session);
      await slow.started;
      const runs = await host.client.call('agent.runs', { sessionId: session });
      const runId = runs.at(-1)!.id;
      // The first piece reaches the card while the run is still going.
      const seen = await new Promise<{ text: string; outcome: string }>((resolve) => {
        host.client.subscribe('agent.events', { runId }, {
          onItem: (event) => {
            if (event.kind === 'output' && event.cardId === 'main') void host.client.call('agent.runs', { sessionId: session }).then((now) => resolve({ text: event.data, outcome: now.at(-1)!.outcome }));
          },
        });
      });
      assert.deepEqual(seen, { text: 'The first half, ', outcome: 'running' });

      host.server.services.consent.revoke(grantId, 'user');
      const ended = await response;
      assert.equal(ended.status, 'error');
      assert.match(ended.data, /\(credential_revoked\)/);
      assert.match(ended.data, /Output before it stopped:\nThe first half, $/);
      assert.deepEqual(slow.keys, [slowKey]);
      slow.finish();

      // With a new grant the same agent completes, and counts the tokens of message_start and the last message_delta.
      host.grant('slow-writer', 'anthropic-slow', session);
      const whole = host.spawn('slow-writer', '', 'write a lot', {}, session);
      await waitFor(() => slow.keys.length === 2, 'the second call to arrive');
      slow.finish();
      const done = await whole;
      assert.equal(done.status, 'success', done.data);
      assert.equal(done.data, 'The first half, then the rest.');
      assert.equal(done.metadata.tokens_used, 5 + 12);
    });

    it('a turn past its timeout ends as timeout and its call is closed all the way to the provider', async () => {
      const session = await host.newSession();
      host.grant('slow-writer', 'anthropic-slow', session);
      const calls = slow.keys.length;
      const response = await host.spawn('slow-writer', '', 'write forever', { timeout_seconds: 1 }, session);
      assert.equal(response.status, 'timeout');
      assert.match(response.data, /Output before it stopped:\nThe first half, $/);
      assert.equal(slow.keys.length, calls + 1);
      const { info } = await host.lastRun(session);
      assert.equal(info.outcome, 'timeout');
      // The proxy saw the client go and closed the upstream stream: nothing is left running at the provider.
      await waitFor(() => slow.openStreams === 0, 'the stream at the provider to be closed');
    });

    it('a suspended run holds the text where it is, even once the provider has sent all of it; resume lets it finish', async () => {
      const session = await host.newSession();
      host.grant('slow-writer', 'anthropic-slow', session);
      const calls = slow.keys.length;
      const response = host.spawn('slow-writer', '', 'write a lot', {}, session);
      await waitFor(() => slow.keys.length === calls + 1 && slow.openStreams === 1, 'the stream to be open');
      const runId = (await host.client.call('agent.runs', { sessionId: session })).at(-1)!.id;
      await waitFor(async () => (await host.client.call('agent.runs', { sessionId: session })).at(-1)!.state === 'Active', 'the run to be active');
      await host.client.call('agent.suspend', { runId });
      slow.finish();
      await waitFor(() => slow.openStreams === 0, 'the provider to have sent everything');
      const held = (await host.client.call('agent.runs', { sessionId: session })).at(-1)!;
      assert.deepEqual([held.state, held.outcome], ['Suspended', 'running']);
      await host.client.call('agent.resume', { runId });
      const done = await response;
      assert.equal(done.status, 'success', done.data);
      assert.equal(done.data, 'The first half, then the rest.');
    });
  });
}
