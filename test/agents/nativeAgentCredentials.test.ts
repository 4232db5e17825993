// A native agent (sandbox = "native", run in bwrap) that declares a connection (oauth_scopes + oauth:<provider>.api)
// reaches the provider through the credential proxy with a dummy key, through the real host: the real keychain (a
// private gnome-keyring), the real consent prompts, the real proxy and bridge, and a local stand-in for the
// provider's API. The stand-in receives the real key; the agent's environment, argv, stdout and log never hold it.
// The dummy key ends with the run. Without the grant the agent starts with no proxy variables and reaches nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRunEvent, ConsentAnswer, ConsentPrompt } from '../../src-preload/contract';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { ACCEPTED, CAPABILITY, type Client, mainCard as main, runEvents, startConnectionStage } from './nativeConnectionAgent';

const AGENT = 'native-llm-caller';

// Reports the base URL it was given, dumps its environment and argv to stdout (not events: they land on the log
// card), then calls the provider's echo route through the base URL with the key it holds.
const SCRIPT = `#!/bin/sh
read -r input
emit() { printf '{"schema_version":"0.1","type":"output","agent_id":"${AGENT}","chunk_id":"main","content_type":"text/plain","data":"%s"}\\n' "$1"; }
emit "base=\${OPENAI_BASE_URL:-none}"
env
tr '\\0' ' ' < /proc/$$/cmdline; echo
if [ -n "$OPENAI_BASE_URL" ]; then
  answer=$(curl -sS -m 20 -H "Authorization: Bearer $OPENAI_API_KEY" "$OPENAI_BASE_URL/echo" 2>&1 | tr -d '"\\\\')
  emit "upstream: $answer"
fi
exit 0
`;

async function run(client: Client, sessionId: string, answer: (prompt: ConsentPrompt) => ConsentAnswer): Promise<{ events: AgentRunEvent[]; asked: string[] }> {
  const asked: string[] = [];
  const prompts = client.subscribe('consent.prompts', { sessionId }, {
    onItem: (event) => {
      if (event.kind !== 'pending') return;
      asked.push(event.prompt.capability);
      void client.call('consent.answer', { promptId: event.prompt.id, answer: answer(event.prompt) });
    },
  });
  const started = await client.call('agent.start', { sessionId, agent: AGENT, prompt: 'call the provider' });
  const events = await runEvents(client, started.id);
  prompts.dispose();
  return { events, asked };
}

/** The log card's text (the feed may join chunks that arrive together into one event). */
const log = (events: AgentRunEvent[]) => events.flatMap((e) => (e.kind === 'output' && e.cardKind === 'log' ? [e.data] : [])).join('\n');

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 120_000);
} else {
  test('a native agent holding a granted connection reaches the provider through the proxy with a dummy key; without the grant it gets no proxy at all', { timeout: 90_000 }, async (t) => {
    const { client, upstream, realKey, workspace } = await startConnectionStage(t, AGENT, SCRIPT);
    const session = await client.call('session.create', { workspace });

    // Granted: the process.exec card, then the connection's card; the agent's call arrives with the real key.
    const granted = await run(client, session.id, () => ({ kind: 'allow_for', minutes: 10 }));
    assert.deepEqual(granted.asked, ['process.exec', CAPABILITY]);
    const [base, answer] = main(granted.events);
    assert.match(base, /^base=http:\/\/127\.0\.0\.1:\d+\/openai-compatible$/);
    assert.equal(answer, `upstream: {credential:${ACCEPTED}}`);
    assert.equal(upstream.seen.length, 1);
    assert.equal(upstream.seen[0].path, '/v1/echo');
    assert.ok(upstream.seen[0].credential === realKey, 'the stand-in received the real key');
    // The agent's environment and argv (printed to its stdout, shown on the log card) hold the dummy key only.
    const card = log(granted.events);
    assert.match(card, /OPENAI_API_KEY=omni-proxy-/);
    assert.match(card, /\/bin\/sh \S+\/agent\.sh/, 'argv was printed');
    assert.ok(!JSON.stringify(granted.events).includes(realKey), 'nothing the agent produced holds the real key');
    const ledger = await client.call('ledger.list', { limit: 200 });
    assert.ok(!JSON.stringify(ledger).includes(realKey), 'nor does the ledger');
    const launch = ledger.find((e) => e.type === 'agent.native_launch');
    assert.deepEqual((launch?.payload as { connections?: string[] }).connections, [CAPABILITY]);
    assert.ok(ledger.some((e) => e.type === 'credential.proxy_request' && (e.payload as { status?: number }).status === 200));

    // The dummy key was this run's: with the run over, the proxy refuses it (the grant itself still lives).
    const dummy = /OPENAI_API_KEY=(omni-proxy-[A-Za-z0-9_-]+)/.exec(card)![1];
    const after = await fetch(`${base.slice('base='.length)}/echo`, { headers: { authorization: `Bearer ${dummy}` } });
    assert.equal(after.status, 403);
    assert.equal(((await after.json()) as { error: { type: string } }).error.type, 'credential_revoked');
    assert.equal(upstream.seen.length, 1, 'nothing reached the provider with the ended key');

    // Not granted (a new session, so no grant carries over): no proxy variables, no bridge, nothing reaches the provider.
    const other = await client.call('session.create', { workspace });
    const refused = await run(client, other.id, (p) => (p.capability === 'process.exec' ? { kind: 'allow_once' } : { kind: 'deny' }));
    assert.deepEqual(refused.asked, ['process.exec', CAPABILITY]);
    assert.deepEqual(main(refused.events), ['base=none']);
    assert.doesNotMatch(log(refused.events), /OPENAI_/, 'no proxy variables in its environment');
    assert.ok(log(refused.events).includes(`${CAPABILITY} not granted`), log(refused.events));
    assert.equal(upstream.seen.length, 1);
  });
}
