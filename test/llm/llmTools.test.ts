// The tool loop of model-backed agents, through the real host and the mock providers: the model asks to read a file
// and write another; each call goes through the WASM agents' own host calls (consent per path, .meta read-only, the
// ledger, a spawned turn's staged writes), the result goes back to the model, and the tokens of every round count.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { conversationOf, type MockScript } from '../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { cards, startLlmHost, type LlmHost, type ProviderId } from './llmHost';

/** Round 1: read notes.txt. Round 2: write what it found to the path the prompt names. Round 3: say how it went. */
const toolScript: MockScript = (request) => {
  const turns = conversationOf(request);
  const results = turns.filter((turn) => turn.role === 'tool');
  const target = /write to (\S+)/.exec(turns.find((turn) => turn.role === 'user')?.text ?? '')?.[1] ?? 'answer.txt';
  if (results.length === 0) return { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }], usage: { inputTokens: 10, outputTokens: 3 } };
  if (results.length === 1) {
    const found = /secret number is (\d+)/.exec(results[0].text)?.[1] ?? `nothing (${results[0].text})`;
    return { text: 'Read it.', toolCalls: [{ name: 'write_file', input: { path: target, content: found } }], usage: { inputTokens: 20, outputTokens: 4 } };
  }
  return { text: results[1].text.startsWith('wrote') ? `Done: ${results[1].text}.` : `Could not write: ${results[1].text}`, usage: { inputTokens: 30, outputTokens: 5 } };
};

const TOOLS = 'tools = ["read_file", "write_file"]\n';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 180_000);
} else {
  describe('model-backed agents with workspace tools', () => {
    let host: LlmHost;
    before(async () => {
      host = await startLlmHost({ anthropic: toolScript, openai: toolScript, 'openai-compatible': toolScript });
      writeFileSync(join(host.workspace, 'notes.txt'), 'the secret number is 7\n');
      writeFileSync(join(host.home, 'llm-models.json'), JSON.stringify({ providers: { 'openai-compatible': { fast: 'llama3.2:3b', smart: 'qwen2.5:32b' } } }));
      for (const provider of ['anthropic', 'openai', 'openai-compatible']) host.installAgent(`tools-${provider}`, provider, `provider = "${provider}"\n${TOOLS}`, ['files.read', 'files.write']);
    });
    after(() => host.close());

    for (const provider of ['anthropic', 'openai', 'openai-compatible'] as ProviderId[]) {
      it(`${provider}: the model reads and writes through the host's file calls, asked for on cards; results go back to it; every round's tokens count`, async () => {
        const session = await host.newSession();
        host.grant(`tools-${provider}`, provider, session);
        const asked = await host.answerCards({ kind: 'allow_for', minutes: 5 }, session);
        const before = host.mocks[provider].turns().length;
        const response = await host.spawn(`tools-${provider}`, 'Use the tools.', `Find the number and write to answer-${provider}.txt`, {}, session);
        assert.equal(response.status, 'success', response.data);
        assert.equal(response.data, `Read it.\n\nDone: wrote 1 bytes to answer-${provider}.txt.`);
        assert.equal(response.metadata.tokens_used, 10 + 3 + 20 + 4 + 30 + 5);
        // The spawned turn's write reached the workspace when it completed; the cards named each path.
        assert.equal(readFileSync(join(host.workspace, `answer-${provider}.txt`), 'utf8'), '7');
        assert.deepEqual(asked, ['files.read', 'files.write']);
        // The model got the file's text back as the read's result.
        const turns = host.mocks[provider].turns().slice(before);
        assert.equal(turns.length, 3);
        assert.ok(conversationOf(turns[1]).some((turn) => turn.role === 'tool' && turn.text === 'the secret number is 7\n'), JSON.stringify(conversationOf(turns[1])));
        const { events } = await host.lastRun(session);
        assert.match(cards(events).log, /read_file notes\.txt: 23 bytes/);
        assert.match(cards(events).log, new RegExp(`write_file answer-${provider}\\.txt: 1 bytes`));
        const ledger = await host.ledgerText();
        assert.ok(ledger.includes(`"path":"answer-${provider}.txt"`) && ledger.includes('agent.file_write'));
      });
    }

    it('a refused write goes back to the model as the tool\'s error and nothing is written; .meta stays read-only even when granted', async () => {
      const session = await host.newSession();
      host.grant('tools-anthropic', 'anthropic', session);
      await host.answerCards({ kind: 'deny' }, session);
      // Reading is granted beforehand; the write's card is denied.
      host.server.services.consent.grant({ agentId: 'tools-anthropic', sessionId: session, capability: 'files.read', durationS: 600 }, 'user');
      const denied = await host.spawn('tools-anthropic', '', 'Find the number and write to refused.txt', {}, session);
      assert.equal(denied.status, 'success', denied.data);
      assert.match(denied.data, /Could not write: capability_denied: /);
      assert.equal(existsSync(join(host.workspace, 'refused.txt')), false);

      mkdirSync(join(host.workspace, '.meta'), { recursive: true });
      host.server.services.consent.grant({ agentId: 'tools-anthropic', sessionId: session, capability: 'files.write', durationS: 600 }, 'user');
      const meta = await host.spawn('tools-anthropic', '', 'Find the number and write to .meta/context.md', {}, session);
      assert.match(meta.data, /Could not write: capability_denied: "\.meta\/context\.md" is maintained by the shell and read-only to agents/);
      assert.equal(existsSync(join(host.workspace, '.meta', 'context.md')), false);
    });

    it('a spawned turn that fails after its write leaves nothing in the workspace (its writes were staged)', async () => {
      const session = await host.newSession();
      host.grant('tools-anthropic', 'anthropic', session);
      for (const capability of ['files.read', 'files.write']) host.server.services.consent.grant({ agentId: 'tools-anthropic', sessionId: session, capability, durationS: 600 }, 'user');
      host.mocks.anthropic.setScript((request) => (conversationOf(request).filter((turn) => turn.role === 'tool').length < 2 ? toolScript(request) : { error: { status: 500, type: 'api_error', message: 'mock failure after the write' } }));
      try {
        const failed = await host.spawn('tools-anthropic', '', 'Find the number and write to dropped.txt', {}, session);
        assert.equal(failed.status, 'error');
        assert.match(failed.data, /\(provider_unavailable\)/);
        assert.equal(existsSync(join(host.workspace, 'dropped.txt')), false);
        assert.ok((await host.ledgerText()).includes('agent.writes_dropped'));
      } finally {
        host.mocks.anthropic.setScript(toolScript);
      }
    });

    it('a definition offering a tool whose capability the manifest lacks fails before any call, naming manifest.toml', async () => {
      host.installAgent('tools-undeclared', 'anthropic', `provider = "anthropic"\n${TOOLS}`, ['files.read']);
      host.grant('tools-undeclared', 'anthropic');
      const response = await host.spawn('tools-undeclared', '', 'hi');
      assert.equal(response.status, 'error');
      assert.match(response.data, /\(llm_config\): \S+manifest\.toml: capabilities: the agent offers the model write_file \(agent\.llm\.toml\) but does not declare files\.write/);
    });
  });
}
