// "Allow once" on a native agent's connection card (oauth:<provider>.api) means: for this one run. The handle issued
// at launch spends the grant and serves every request the program makes through the credential proxy; it ends with
// the run (the next run asks again); revoking the spent grant mid-run cuts a stream in flight and refuses the next
// request at once. Through the real host: real keychain (a private gnome-keyring), consent prompts, proxy and bridge,
// bwrap, and a local stand-in for the provider's API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { ACCEPTED, CAPABILITY, type Client, mainCard as main, runEvents as events, startConnectionStage } from './nativeConnectionAgent';

const AGENT = 'native-once-caller';

// Three calls to the provider's echo route; asked to "hold", then a stream that only ends when cut, and one more call.
const SCRIPT = `#!/bin/sh
read -r input
emit() { printf '{"schema_version":"0.1","type":"output","agent_id":"${AGENT}","chunk_id":"main","content_type":"text/plain","data":"%s"}\\n' "$1"; }
call() { curl -sS -m 20 -H "Authorization: Bearer $OPENAI_API_KEY" "$OPENAI_BASE_URL/$1" 2>&1 | grep -o 'credential_revoked\\|credential:[^,}]*' | head -1; }
for i in 1 2 3; do emit "call $i: $(curl -sS -m 20 -H "Authorization: Bearer $OPENAI_API_KEY" "$OPENAI_BASE_URL/echo" 2>&1 | tr -d '"\\\\')"; done
case "$input" in *hold*)
  emit "stream: $(curl -sS -N -m 60 -H "Authorization: Bearer $OPENAI_API_KEY" "$OPENAI_BASE_URL/stream" 2>&1 | grep -o credential_revoked | head -1)"
  emit "after: $(call echo)"
  ;;
esac
exit 0
`;

/** Answers every card of the session "Allow once" (process.exec and the connection), recording what was asked. */
function answerOnce(client: Client, sessionId: string): string[] {
  const asked: string[] = [];
  client.subscribe('consent.prompts', { sessionId }, {
    onItem: (event) => {
      if (event.kind !== 'pending') return;
      asked.push(event.prompt.capability);
      void client.call('consent.answer', { promptId: event.prompt.id, answer: { kind: 'allow_once' } });
    },
  });
  return asked;
}

const OK = `{credential:${ACCEPTED}}`;

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 150_000);
} else {
  test('a native agent allowed its connection once uses it for the whole run; the next run asks again; revoking mid-run cuts at once', { timeout: 120_000 }, async (t) => {
    const { client, upstream, realKey, workspace } = await startConnectionStage(t, AGENT, SCRIPT);
    const session = await client.call('session.create', { workspace });
    const asked = answerOnce(client, session.id);
    const ledger = async (type: string) =>
      (await client.call('ledger.list', { sessionId: session.id, limit: 1000 })).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

    // One run, three requests, all through the one "Allow once".
    const first = await client.call('agent.start', { sessionId: session.id, agent: AGENT, prompt: 'call three times' });
    const three = `call 1: ${OK}call 2: ${OK}call 3: ${OK}`;
    assert.equal(main(await events(client, first.id)).join(''), three);
    const connectionCards = () => asked.filter((capability) => capability === CAPABILITY).length;
    assert.equal(connectionCards(), 1);
    assert.equal(upstream.seen.filter((s) => s.credential === realKey).length, 3, 'each request reached the provider with the real key');
    const [use] = await ledger('consent.use');
    assert.equal(use.capability, CAPABILITY);
    assert.match(String(use.heldBy), /^credential handle hdl_/);
    assert.deepEqual((await ledger('credential.handle_revoke')).map((e) => e.code), ['run_ended']);
    assert.deepEqual((await client.call('consent.grants', { sessionId: session.id })).filter((g) => g.capability === CAPABILITY), [], 'the spent grant is gone with the run');

    // The next run asks again.
    const second = await client.call('agent.start', { sessionId: session.id, agent: AGENT, prompt: 'call three times' });
    assert.equal(main(await events(client, second.id)).join(''), three);
    assert.equal(connectionCards(), 2, 'a second connection card for the second run');

    // Revoked mid-run: the stream in flight is cut with credential_revoked, the next request is refused.
    const third = await client.call('agent.start', { sessionId: session.id, agent: AGENT, prompt: 'call, then hold a stream' });
    const ended = events(client, third.id);
    await waitFor(() => upstream.openStreams === 1, 'the agent\'s stream to be open at the provider');
    const held = (await client.call('consent.grants', { sessionId: session.id })).find((g) => g.capability === CAPABILITY);
    assert.equal(held?.status, 'used', 'the run holds the spent once-grant');
    await client.call('consent.revoke', { grantId: held!.id });
    // (The feed may join pieces that arrive together, so the text is compared whole.)
    assert.equal(main(await ended).join(''), `call 1: ${OK}call 2: ${OK}call 3: ${OK}stream: credential_revokedafter: credential_revoked`);
    assert.equal(upstream.openStreams, 0);
    assert.equal(upstream.seen.filter((s) => s.credential === realKey).length, 3 * 3 + 1, 'nothing reached the provider after the revocation');
    assert.deepEqual((await ledger('credential.handle_revoke')).map((e) => e.code).sort(), ['grant_revoked', 'run_ended', 'run_ended']);
    const ledgerText = JSON.stringify(await client.call('ledger.list', { limit: 1000 }));
    assert.ok(!ledgerText.includes(realKey), 'the ledger never holds the key');
  });
}
