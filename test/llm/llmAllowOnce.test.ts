// "Allow once" on a model-backed agent's connection card (oauth:<provider>.api) means: for this one run. The run's
// handle spends the grant when it is issued and covers every model request of the run (a tool loop makes several);
// the handle ends with the run and the next run asks again; revoking the spent grant mid-run still cuts the run.
// Through the real host (consent engine, ledger, SQLite, keychain in a private gnome-keyring), the credential proxy
// and the mock Anthropic server.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { conversationOf, type MockScript } from '../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { cards, startLlmHost, type LlmHost } from './llmHost';

/** Three requests in one run: read notes.txt, read it again, then answer with what it says. */
const threeRounds: MockScript = (request) => {
  const results = conversationOf(request).filter((turn) => turn.role === 'tool');
  if (results.length < 2) return { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }], usage: { inputTokens: 10, outputTokens: 3 } };
  return { text: `Read twice: ${/number is (\d+)/.exec(results[1].text)?.[1] ?? '?'}`, usage: { inputTokens: 20, outputTokens: 4 } };
};

const AGENT = 'once-reader';
const CAPABILITY = 'oauth:anthropic.api';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 180_000);
} else {
  describe('model-backed agents: "Allow once" on the connection is for one run', () => {
    let host: LlmHost;
    before(async () => {
      host = await startLlmHost({ anthropic: threeRounds });
      writeFileSync(join(host.workspace, 'notes.txt'), 'the number is 7\n');
      host.installAgent(AGENT, 'anthropic', 'provider = "anthropic"\ntools = ["read_file"]\n', ['files.read']);
    });
    after(() => host.close());

    /** A session where the agent may read files for a while, and every card (the connection's) is answered "Allow once". */
    async function onceSession(): Promise<{ sessionId: string; asked: string[] }> {
      const sessionId = await host.newSession();
      host.server.services.consent.grant({ agentId: AGENT, sessionId, capability: 'files.read', durationS: 600 }, 'user');
      return { sessionId, asked: await host.answerCards({ kind: 'allow_once' }, sessionId) };
    }

    const entries = async (sessionId: string, type: string) =>
      (await host.client.call('ledger.list', { sessionId, limit: 1000 })).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

    it('one card covers every model request of the run; the handle ends with the run, and the next run asks again', async () => {
      const { sessionId, asked } = await onceSession();
      const before = host.mocks.anthropic.turns().length;
      await host.client.call('agent.start', { sessionId, agent: AGENT, prompt: 'What number is in notes.txt?' });
      const first = await host.lastRun(sessionId);
      assert.equal(first.info.outcome, 'completed', JSON.stringify(first.info.error));
      assert.equal(cards(first.events).main.join(''), 'Read twice: 7');
      assert.match(cards(first.events).log, /allowed once: for this run only/);
      const turns = host.mocks.anthropic.turns().slice(before);
      assert.equal(turns.length, 3, 'three model requests under the one "Allow once"');
      for (const turn of turns) assert.ok(turn.apiKey === host.keys.anthropic, 'each request reached the provider with the real key');
      assert.deepEqual(asked, [CAPABILITY]);

      // The ledger says what happened: the once-grant spent by issuing the run's handle, the handle ended with the run.
      const [grant] = await entries(sessionId, 'consent.grant');
      assert.equal(grant.once, true);
      const [use] = await entries(sessionId, 'consent.use');
      assert.equal(use.grantId, grant.grantId);
      assert.match(String(use.heldBy), /^credential handle hdl_/);
      const [issued] = await entries(sessionId, 'credential.handle_issue');
      assert.deepEqual([issued.grantId, issued.forOneRun, `credential handle ${String(issued.handleId)}`], [grant.grantId, true, use.heldBy]);
      const ended = await entries(sessionId, 'credential.handle_revoke');
      assert.deepEqual(ended.map((e) => [e.handleId, e.code]), [[issued.handleId, 'run_ended']]);
      // Nothing is left to revoke: the spent grant left the session's grants, and no handle is held any more.
      assert.deepEqual(host.server.services.consent.list(sessionId).filter((g) => g.capability === CAPABILITY), []);
      assert.equal((await host.client.call('credentials.list', {})).flatMap((c) => c.handles).filter((h) => h.sessionId === sessionId).length, 0);

      // The next run of the same agent in the same session asks again (and works again on "Allow once").
      await host.client.call('agent.start', { sessionId, agent: AGENT, prompt: 'And again?' });
      const second = await host.lastRun(sessionId);
      assert.equal(second.info.outcome, 'completed', JSON.stringify(second.info.error));
      assert.deepEqual(asked, [CAPABILITY, CAPABILITY], 'a second card for the second run');
      assert.equal(host.mocks.anthropic.turns().length, before + 6);
      assert.equal((await entries(sessionId, 'consent.use')).length, 2);
    });

    it('revoking the spent grant mid-run cuts the run at once with credential_revoked', async () => {
      const { sessionId } = await onceSession();
      let arrived!: () => void;
      const secondArrived = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // The first request is answered (the handle worked once); the second is held until the revocation.
      host.mocks.anthropic.setScript(async (request) => {
        if (conversationOf(request).some((turn) => turn.role === 'tool')) {
          arrived();
          await held;
        }
        return threeRounds(request);
      });
      try {
        await host.client.call('agent.start', { sessionId, agent: AGENT, prompt: 'What number is in notes.txt?' });
        await secondArrived;
        const grant = host.server.services.consent.list(sessionId).find((g) => g.capability === CAPABILITY);
        assert.equal(grant?.status, 'used', 'the run holds the spent once-grant');
        host.server.services.consent.revoke(grant!.id, 'user');
        const { info } = await host.lastRun(sessionId);
        assert.equal(info.outcome, 'failed');
        assert.equal(info.error?.code, 'credential_revoked');
        const revoked = await entries(sessionId, 'credential.handle_revoke');
        assert.deepEqual(revoked.map((e) => e.code), ['grant_revoked']);
        assert.equal((await entries(sessionId, 'consent.revoke')).length, 1);
      } finally {
        release();
        host.mocks.anthropic.setScript(threeRounds);
      }
    });
  });
}
