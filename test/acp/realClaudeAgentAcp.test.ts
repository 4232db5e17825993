// Integration: the REAL claude-agent-acp adapter (installed by scripts/install-acp-agents.mjs into .cache/acp-agents),
// i.e. Claude Code through the Claude Agent SDK, speaking ACP to the host, against the mock Anthropic API
// (test/mockProviders). A prompt streams chunks; the mock's Write tool call becomes a permission request, then a
// consent card: allowed, Claude Code's own Write tool creates the file and the tool_call_update's diff is stored;
// denied, nothing is written. After a host restart the conversation shows from the event log, and Resume
// (session/load) continues it: the mock receives the earlier turns. The agent runs as the host starts it by default
// (in the native sandbox, its environment filtered): the mock's key is stored as a connection on the real keychain (a
// private gnome-keyring), so the real key reaches the mock only through the credential proxy.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AcpEntry } from '../../src-preload/contract';
import { ProviderRegistry } from '../../src-main/node/vault/providers';
import { tempDir } from '../helpers';
import { conversationOf, startMockProvider, type MockProvider } from '../mockProviders';
import { writeToolScript } from '../harness/writeToolScript';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { CONNECTION, entryKind, messageChunks, openAcpTestHost, storedEntries } from './acpTestHost';

const BIN = join(import.meta.dirname, '..', '..', '.cache', 'acp-agents', 'node_modules', '.bin');
const skip = existsSync(join(BIN, 'claude-agent-acp')) ? false : 'claude-agent-acp is not installed (node scripts/install-acp-agents.mjs failed or was not run)';

/** The built-in Anthropic provider with its API at the mock (only 127.0.0.1 may receive the key). */
const anthropicAt = (origin: string) => new ProviderRegistry([{ ...new ProviderRegistry().get('anthropic'), apiBaseUrl: origin, apiDomains: ['127.0.0.1'] }]);

const openHost = (home: string, workspace: string, providers: ProviderRegistry, sessionId?: string) => openAcpTestHost({ home, keychain: 'os', providers }, workspace, sessionId);
const chunks = (list: AcpEntry[]) => messageChunks(list).join('');
const entries = storedEntries;
const kindOf = entryKind;

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(fileURLToPath(import.meta.url), 320_000);
} else {
test('claude-agent-acp: streamed turn, Write allowed and denied through consent cards, history and Resume after a restart', { skip, timeout: 300_000 }, async (t) => {
  const home = tempDir('acp-real-home');
  const workspace = tempDir('acp-real-ws');
  const userHome = tempDir('acp-real-user');
  const target = join(workspace.path, 'hello.txt');
  let mode: 'echo' | 'write' = 'echo';
  const write = writeToolScript(() => ({ name: 'Write', input: { file_path: target, content: 'written by claude' } }));
  const mock: MockProvider = await startMockProvider('anthropic', {
    script: (req) => {
      if (mode === 'write') return write(req);
      const last = conversationOf(req).filter((turn) => turn.role === 'user').at(-1)?.text ?? '';
      return { text: `mock reply to: ${last.slice(-60)}` };
    },
  });
  // The host's own environment: a decoy key and base URL the agent must never get (its environment is filtered).
  Object.assign(process.env, { OMNI_ACP_AGENTS_BIN: BIN, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/decoy', ANTHROPIC_API_KEY: 'sk-ant-decoy-from-the-host-env', HOME: userHome.path, DISABLE_AUTOUPDATER: '1' });
  const providers = anthropicAt(mock.origin);
  let host = await openHost(home.path, workspace.path, providers);
  t.after(async () => {
    await host.dispose();
    await mock.close();
    home.cleanup();
    workspace.cleanup();
    userHome.cleanup();
  });
  const { sessionId } = host;
  // Key stored: the agent reaches the mock only through the credential proxy, which adds the real key.
  const realKey = `sk-ant-real-${randomBytes(18).toString('base64url')}`;
  await host.services.handlers['credentials.addApiKey']({ provider: 'anthropic', apiKey: realKey }, CONNECTION);

  let started = Date.now();
  const conversation = await host.services.handlers['acp.start']({ sessionId, agent: 'claude' }, CONNECTION);
  t.diagnostic(`initialize + session/new: ${Date.now() - started} ms`);
  assert.equal(conversation.status, 'ready');
  assert.equal(conversation.sandboxed, true, 'the host starts the agent in the native sandbox');
  assert.ok(conversation.continuation.key, 'the ACP session id is stored as the continuation key');
  assert.equal(conversation.continuation.provider, 'anthropic');
  assert.match(conversation.continuation.key!, /^[0-9a-f-]{36}$/i, 'the key is the CLI session UUID');

  started = Date.now();
  const first = await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'say hello please' }, CONNECTION);
  t.diagnostic(`first turn: ${Date.now() - started} ms`);
  assert.equal(first.stopReason, 'end_turn');
  assert.match(chunks(entries(host, conversation.id)), /mock reply to: [^]*say hello please/);
  const record = entries(host, conversation.id).filter((e) => e.type === 'status').at(-1)!.data as { usage: { used: number; cost: { amount: number } | null } | null };
  t.diagnostic(`usage after the first turn: ${JSON.stringify(record.usage)}`);
  assert.ok(record.usage && record.usage.used > 0, 'usage_update reaches the conversation record');

  // Write, denied: the file stays absent.
  mode = 'write';
  host.answer = () => ({ kind: 'deny' });
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write hello.txt' }, CONNECTION);
  assert.equal(existsSync(target), false);
  assert.equal(host.cards.at(-1)?.capability, 'files.write');
  assert.equal(host.cards.at(-1)?.target, 'hello.txt');

  // Write, allowed once: Claude Code's Write tool creates it; the tool_call_update with its diff is stored.
  host.answer = () => ({ kind: 'allow_once' });
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'write hello.txt' }, CONNECTION);
  assert.equal(readFileSync(target, 'utf8'), 'written by claude');
  const all = entries(host, conversation.id);
  const kinds = new Set(all.map(kindOf));
  t.diagnostic(`update kinds seen: ${[...kinds].join(', ')}`);
  assert.ok(kinds.has('tool_call'));
  assert.ok(
    all.some((e) => kindOf(e) === 'tool_call_update' && JSON.stringify(e.data).includes('written by claude')),
    'a tool_call_update carries the write',
  );
  const ledger = (await host.services.handlers['ledger.list']({ sessionId, limit: 1000 }, CONNECTION)).filter((e) => e.type === 'acp.permission').map((e) => (e.payload as { answer: string }).answer);
  assert.deepEqual(ledger.sort(), ['allow', 'reject'], 'both answers are ledgered');

  // Restart: the history is there without the agent; Resume continues, and the mock sees the earlier turns.
  const before = chunks(all);
  await host.dispose();
  host = await openHost(home.path, workspace.path, providers, sessionId);
  assert.equal(chunks(entries(host, conversation.id)), before);
  mode = 'echo';
  started = Date.now();
  const resumed = await host.services.handlers['acp.resume']({ conversationId: conversation.id }, CONNECTION);
  t.diagnostic(`resume (session/load): ${Date.now() - started} ms`);
  assert.equal(resumed.status, 'ready');
  const seen = mock.turns().length;
  await host.services.handlers['acp.prompt']({ conversationId: conversation.id, text: 'what did I ask first?' }, CONNECTION);
  const last = mock.turns().slice(seen).find((req) => conversationOf(req).some((turn) => turn.role === 'user' && turn.text.includes('what did I ask first?')));
  assert.ok(last, 'the resumed prompt reached the mock');
  assert.ok(conversationOf(last).some((turn) => turn.role === 'user' && turn.text.includes('say hello please')), 'the mock received the earlier turns');
  assert.deepEqual(new Set(mock.turns().map((request) => request.apiKey)), new Set([realKey]), 'every request carried the real key, added by the credential proxy');
});
}
