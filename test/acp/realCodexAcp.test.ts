// Integration: the REAL codex-acp adapter (Codex through ACP, installed by scripts/install-acp-agents.mjs) against the
// mock OpenAI Responses API (test/mockProviders): a prompt streams chunks into the event log; after a host restart
// the conversation shows from the log and Resume (session/load) continues it. The agent runs as the host starts it by
// default (in the native sandbox, its environment filtered): the mock's key is stored as a connection on the real
// keychain (a private gnome-keyring), so the real key reaches the mock only through the credential proxy.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AcpEntry } from '../../src-preload/contract';
import { createHostServices } from '../../src-main/node/hostServices';
import { ProviderRegistry } from '../../src-main/node/vault/providers';
import { tempDir } from '../helpers';
import { conversationOf, startMockProvider } from '../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { CONNECTION, messageChunks, sinkOf } from './acpTestHost';

const BIN = join(import.meta.dirname, '..', '..', '.cache', 'acp-agents', 'node_modules', '.bin');
const skip = existsSync(join(BIN, 'codex-acp')) ? false : 'codex-acp is not installed (node scripts/install-acp-agents.mjs failed or was not run)';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(fileURLToPath(import.meta.url), 200_000);
} else {
test('codex-acp: a prompt streams a reply into the event log; after a restart the history shows and Resume continues with the earlier turn', { skip, timeout: 180_000 }, async (t) => {
  const home = tempDir('acp-codex-home');
  const workspace = tempDir('acp-codex-ws');
  const userHome = tempDir('acp-codex-user');
  const mock = await startMockProvider('openai', {
    script: (req) => ({ text: `mock reply to: ${(conversationOf(req).filter((turn) => turn.role === 'user').at(-1)?.text ?? '').slice(-40)}` }),
  });
  // The host's own environment: a decoy key and base URL the agent must never get (its environment is filtered).
  Object.assign(process.env, { OMNI_ACP_AGENTS_BIN: BIN, OPENAI_BASE_URL: 'http://127.0.0.1:9/decoy', OPENAI_API_KEY: 'sk-decoy-from-the-host-env', HOME: userHome.path });
  // The built-in OpenAI provider with its API at the mock (only 127.0.0.1 may receive the key).
  const providers = new ProviderRegistry([{ ...new ProviderRegistry().get('openai'), apiBaseUrl: `${mock.origin}/v1`, apiDomains: ['127.0.0.1'] }]);
  let services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'os', providers });
  t.after(async () => {
    await services.dispose();
    await mock.close();
    home.cleanup();
    workspace.cleanup();
    userHome.cleanup();
  });
  // Key stored: the agent reaches the mock only through the credential proxy, which adds the real key.
  const realKey = `sk-real-${randomBytes(18).toString('base64url')}`;
  await services.handlers['credentials.addApiKey']({ provider: 'openai', apiKey: realKey }, CONNECTION);
  const session = await services.handlers['session.create']({ workspace: workspace.path }, CONNECTION);
  let started = Date.now();
  const conversation = await services.handlers['acp.start']({ sessionId: session.id, agent: 'codex' }, CONNECTION);
  t.diagnostic(`initialize + session/new: ${Date.now() - started} ms`);
  assert.equal(conversation.continuation.provider, 'openai');
  assert.equal(conversation.sandboxed, true, 'the host starts the agent in the native sandbox');
  assert.match(conversation.continuation.key!, /^[0-9a-f-]{36}$/i, 'the key is the Codex thread UUID');
  started = Date.now();
  const turn = await services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'hello codex' }, CONNECTION);
  t.diagnostic(`turn: ${Date.now() - started} ms`);
  assert.equal(turn.stopReason, 'end_turn');
  const text = () => {
    const got: AcpEntry[] = [];
    services.handlers['acp.updates']({ conversationId: conversation.id }, sinkOf<AcpEntry>((e) => got.push(e)), CONNECTION)?.dispose();
    return messageChunks(got).join('');
  };
  const before = text();
  assert.match(before, /mock reply to: [^]*hello codex/);

  // Restart: the history from the event log; Resume (session/load) continues, the mock receives the earlier turn.
  await services.dispose();
  services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'os', providers });
  assert.equal(text(), before);
  started = Date.now();
  const resumed = await services.handlers['acp.resume']({ conversationId: conversation.id }, CONNECTION);
  t.diagnostic(`resume (session/load): ${Date.now() - started} ms`);
  assert.equal(resumed.status, 'ready');
  const seen = mock.turns().length;
  await services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'and again' }, CONNECTION);
  const later = mock.turns().slice(seen).find((req) => conversationOf(req).some((turn) => turn.role === 'user' && turn.text.includes('and again')));
  assert.ok(later, 'the resumed prompt reached the mock');
  assert.ok(conversationOf(later).some((turn) => turn.role === 'user' && turn.text.includes('hello codex')), 'the mock received the earlier turn');
  assert.deepEqual(new Set(mock.turns().map((request) => request.apiKey)), new Set([realKey]), 'every request carried the real key, added by the credential proxy');
});
}
