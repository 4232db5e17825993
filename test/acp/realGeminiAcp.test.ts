// Integration: the REAL Gemini CLI in its ACP mode (`gemini --acp`, @google/gemini-cli installed by
// scripts/install-acp-agents.mjs) against the mock Gemini API (test/mockProviders): a prompt streams chunks into the
// event log; after a host restart the conversation shows from the log and Resume (session/load, which Gemini CLI
// advertises) continues it. The agent runs as the host starts it by default (in the native sandbox, its environment
// filtered): the mock's key is stored as a Google Gemini API connection on the real keychain (a private
// gnome-keyring), so the real key reaches the mock only through the credential proxy, in x-goog-api-key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHostServices } from '../../src-main/node/hostServices';
import { ProviderRegistry } from '../../src-main/node/vault/providers';
import { tempDir } from '../helpers';
import { conversationOf, startMockProvider, type RecordedRequest } from '../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { CONNECTION, storedReplyText } from './acpTestHost';

const BIN = join(import.meta.dirname, '..', '..', '.cache', 'acp-agents', 'node_modules', '.bin');
const skip = existsSync(join(BIN, 'gemini')) ? false : 'gemini is not installed (node scripts/install-acp-agents.mjs failed or was not run)';

/** The conversation's streamed calls (Gemini CLI also calls generateContent on its own, e.g. to route a prompt). */
const streamed = (requests: RecordedRequest[]) => requests.filter((request) => request.path.endsWith(':streamGenerateContent'));
const asksForJson = (request: RecordedRequest) => (request.body as { generationConfig?: { responseMimeType?: string } } | undefined)?.generationConfig?.responseMimeType === 'application/json';
const userSaid = (request: RecordedRequest, words: string) => conversationOf(request).some((turn) => turn.role === 'user' && turn.text.includes(words));

/**
 * Gemini CLI 0.61.0 names a session's record file by the minute it was opened and the first 8 characters of its id,
 * and its session/load opens a fresh record for that id before reading the old one: in the same minute that is the
 * same file, the fresh record's empty history replaces the old one, and the load fails ("No previous sessions found
 * for this project"). A minute later it is a file of its own and the load works; the test resumes then, as a user
 * coming back would.
 */
const minuteOf = (date: Date) => date.toISOString().slice(0, 16);
async function nextMinuteAfter(minute: string): Promise<number> {
  const from = Date.now();
  while (minuteOf(new Date()) <= minute) await new Promise((resolve) => setTimeout(resolve, 250));
  return Date.now() - from;
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(fileURLToPath(import.meta.url), 260_000);
} else {
test('gemini --acp: a prompt streams a reply into the event log; after a restart the history shows and Resume continues with the earlier turn', { skip, timeout: 240_000 }, async (t) => {
  const home = tempDir('acp-gemini-home');
  const workspace = tempDir('acp-gemini-ws');
  const userHome = tempDir('acp-gemini-user');
  const mock = await startMockProvider('gemini', {
    script: (req) =>
      asksForJson(req)
        ? // Gemini CLI's model router asks which model a prompt needs, as JSON; an answer it cannot parse is retried
          // with backoff, several times over more than a minute, before it gives up and picks the default.
          { text: JSON.stringify({ complexity_reasoning: 'a short greeting', complexity_score: 1 }) }
        : { text: `mock reply to: ${(conversationOf(req).filter((turn) => turn.role === 'user').at(-1)?.text ?? '').slice(-40)}` },
  });
  // The host's own environment: a decoy key and base URL the agent must never get (its environment is filtered).
  Object.assign(process.env, { OMNI_ACP_AGENTS_BIN: BIN, GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9/decoy', GEMINI_API_KEY: 'decoy-from-the-host-env', HOME: userHome.path });
  // The built-in Gemini API provider with its API at the mock (only 127.0.0.1 may receive the key).
  const providers = new ProviderRegistry([{ ...new ProviderRegistry().get('gemini'), apiBaseUrl: mock.origin, apiDomains: ['127.0.0.1'] }]);
  let services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'os', providers });
  t.after(async () => {
    await services.dispose();
    await mock.close();
    home.cleanup();
    workspace.cleanup();
    userHome.cleanup();
  });
  const realKey = `AIza-real-${randomBytes(18).toString('base64url')}`;
  await services.handlers['credentials.addApiKey']({ provider: 'gemini', apiKey: realKey }, CONNECTION);
  const session = await services.handlers['session.create']({ workspace: workspace.path }, CONNECTION);
  let started = Date.now();
  const conversation = await services.handlers['acp.start']({ sessionId: session.id, agent: 'gemini' }, CONNECTION);
  const openedIn = minuteOf(new Date());
  t.diagnostic(`initialize + session/new: ${Date.now() - started} ms`);
  assert.equal(conversation.sandboxed, true, 'the host starts the agent in the native sandbox');
  assert.equal(conversation.continuation.provider, 'acp:gemini');
  assert.match(conversation.continuation.key!, /^[0-9a-f-]{36}$/i, 'the key is Gemini CLI\'s session UUID');
  assert.equal(conversation.resumable, true, 'Gemini CLI advertises loadSession');
  const settings = JSON.parse(readFileSync(join(home.path, 'acp', 'gemini', '.gemini', 'settings.json'), 'utf8')) as { privacy: { usageStatisticsEnabled: boolean } };
  assert.equal(settings.privacy.usageStatisticsEnabled, false, 'no usage statistics to Google\'s logging host');
  started = Date.now();
  const turn = await services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'hello gemini' }, CONNECTION);
  t.diagnostic(`turn: ${Date.now() - started} ms`);
  assert.equal(turn.stopReason, 'end_turn');
  const text = () => storedReplyText(services, conversation.id);
  const before = text();
  assert.match(before, /mock reply to: [^]*hello gemini/);

  // Restart: the history from the event log; Resume (session/load) continues, the mock receives the earlier turn.
  await services.dispose();
  const waited = await nextMinuteAfter(openedIn);
  t.diagnostic(`waited ${waited} ms for the next minute (Gemini CLI 0.61.0 cannot load a session in the minute it was opened)`);
  services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'os', providers });
  assert.equal(text(), before);
  started = Date.now();
  const resumed = await services.handlers['acp.resume']({ conversationId: conversation.id }, CONNECTION);
  t.diagnostic(`resume (session/load): ${Date.now() - started} ms`);
  assert.equal(resumed.status, 'ready');
  // Gemini CLI replays the history after it has answered session/load; the host does not store it again.
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(text(), before, 'the replayed history is not stored twice');
  const seen = mock.requests.length;
  await services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'and again' }, CONNECTION);
  const later = streamed(mock.requests.slice(seen)).find((req) => userSaid(req, 'and again'));
  assert.ok(later, 'the resumed prompt reached the mock');
  assert.ok(userSaid(later, 'hello gemini'), 'the mock received the earlier turn');
  assert.match(text(), /mock reply to: [^]*and again/);
  assert.deepEqual(mock.unhandled().map((r) => `${r.method} ${r.path}`), [], 'the mock served everything Gemini CLI asked for');
  assert.deepEqual(new Set(mock.requests.map((request) => request.apiKey)), new Set([realKey]), 'every request carried the real key, added by the credential proxy');
  assert.ok(mock.requests.every((request) => !('x-gemini-api-privileged-user-id' in request.headers)), 'no installation id on model requests');
});
}
