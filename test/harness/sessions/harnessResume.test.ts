// Harness sessions through the real host, with the real Claude Code and Codex CLIs against the mock providers, the
// real keychain (a private gnome-keyring) and the credential proxy: a session's continuation key is stored; after a
// host restart Resume relaunches the CLI with it and the mock receives the earlier conversation; a frontend of the
// other provider is refused with the registry's error; the real key never reaches the CLI's output or the ledger.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { RpcError, type ChangeTurn, type HarnessLaunch, type HarnessOutput, type HarnessSession } from '../../../src-preload/contract';
import { conversationOf, startMockProvider, type MockProvider } from '../../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../../privateKeyring';
import { tempDir } from '../../helpers';
import { providerAt, skipWithoutClis, startHarnessHost, type Client } from './harnessHost';

/** Runs a headless launch to its end and returns what its output card got. */
async function outputOf(client: Client, id: string): Promise<HarnessOutput[]> {
  const items: HarnessOutput[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('harness.output', { id }, { onItem: (item) => items.push(item), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  return items;
}

/** The session's turns of the changes area once every one has ended (each launch's "after" snapshot follows its exit). */
async function endedTurns(client: Client, sessionId: string, count: number): Promise<ChangeTurn[]> {
  for (let attempt = 0; ; attempt++) {
    const turns = await new Promise<ChangeTurn[]>((resolve, reject) => {
      const subscription = client.subscribe('changes.turns', { sessionId }, {
        onItem: (frame) => {
          if (frame.kind !== 'snapshot') return;
          subscription.dispose();
          resolve(frame.items);
        },
        onEnd: (error) => error && reject(error),
      });
    });
    if ((turns.length >= count && turns.every((turn) => turn.endedAt !== null)) || attempt === 100) return turns;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const texts = (items: HarnessOutput[]) => items.flatMap((item) => (item.type === 'text' ? [item.text] : []));

function everythingSaid(mock: MockProvider): string {
  return JSON.stringify(mock.turns().map((request) => conversationOf(request)));
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 240_000);
} else {
  test('headless Claude Code and Codex sessions: key stored, resumed after a host restart with the earlier conversation, provider mismatch refused', { skip: skipWithoutClis, timeout: 200_000 }, async (t) => {
    const anthropic = await startMockProvider('anthropic');
    const openai = await startMockProvider('openai');
    const home = tempDir('harness-home');
    const workspace = tempDir('harness-ws');
    const providers = [providerAt('anthropic', anthropic.origin), providerAt('openai', `${openai.origin}/v1`)];
    let host = await startHarnessHost(home.path, providers);
    t.after(async () => {
      host.client.dispose();
      await host.server.close();
      await anthropic.close();
      await openai.close();
      home.cleanup();
      workspace.cleanup();
    });
    // Before any connection: a clear refusal naming what to connect, and nothing stored.
    const early = await host.client.call('session.create', { workspace: workspace.path });
    await assert.rejects(host.client.call('harness.start', { sessionId: early.id, frontend: 'claude-code', interactionMode: 'interactive' }), (error: unknown) => {
      assert.ok(error instanceof RpcError && error.code === 'UNAVAILABLE');
      assert.equal(error.message, 'no connection for claude-code: connect Anthropic (an API key) in Connections, then start the session again. [HARNESS_NO_CONNECTION]');
      return true;
    });
    assert.deepEqual(await host.client.call('harness.list', { sessionId: early.id }), []);

    const anthropicKey = `sk-ant-test-${randomBytes(18).toString('base64url')}`;
    const openaiKey = `sk-test-${randomBytes(18).toString('base64url')}`;
    await host.client.call('credentials.addApiKey', { provider: 'anthropic', apiKey: anthropicKey });
    await host.client.call('credentials.addApiKey', { provider: 'openai', apiKey: openaiKey });
    const session = await host.client.call('session.create', { workspace: workspace.path });

    // Claude Code: the key is the --session-id it was started with, and the one its init event reports.
    let clock = performance.now();
    const claude = await host.client.call('harness.start', { sessionId: session.id, frontend: 'claude-code', interactionMode: 'headless', prompt: 'remember the word PLUM' });
    assert.equal(claude.terminal, null);
    const claudeKey = claude.session.continuation.key;
    assert.match(claudeKey ?? '', /^[0-9a-f-]{36}$/);
    assert.match(claude.session.displayCommand ?? '', /ANTHROPIC_API_KEY='?<redacted>/);
    const launchMs = performance.now() - clock;
    const first = await outputOf(host.client, claude.session.id);
    // Figures for the report (not bounds): how long a launch takes on the host, and a whole headless turn.
    t.diagnostic(`claude-code headless: harness.start answered in ${launchMs.toFixed(0)} ms, the turn ended after ${(performance.now() - clock).toFixed(0)} ms`);
    assert.deepEqual(texts(first), ['mock reply to: remember the word PLUM'], JSON.stringify(first));
    assert.ok(first.some((item) => item.type === 'event' && item.kind === 'init' && item.summary.includes(claudeKey!)));
    // The mock got the real key, from the proxy; the CLI held only the proxy's stand-in.
    assert.ok(anthropic.turns().length >= 1 && anthropic.turns().every((request) => request.apiKey === anthropicKey));

    // Codex: no key until its first event reports the thread id.
    const codex = await host.client.call('harness.start', { sessionId: session.id, frontend: 'codex-cli', interactionMode: 'headless', prompt: 'remember the word FIG' });
    assert.equal(codex.session.continuation.key, undefined);
    const codexOut = await outputOf(host.client, codex.session.id);
    assert.deepEqual(texts(codexOut), ['mock reply to: remember the word FIG'], JSON.stringify(codexOut));
    const codexStored = (await host.client.call('harness.list', { sessionId: session.id })).find((s) => s.id === codex.session.id)!;
    assert.match(codexStored.continuation.key ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(codexOut.some((item) => item.type === 'event' && item.kind === 'thread.started' && item.summary.includes(codexStored.continuation.key!)));
    assert.ok(openai.turns().every((request) => request.apiKey === openaiKey));

    // Restart the host (a new process would do the same: everything it needs is in SQLite and the harness home).
    host.client.dispose();
    await host.server.close();
    host = await startHarnessHost(home.path, providers);
    const listed = await host.client.call('harness.list', { sessionId: session.id });
    const byId = (id: string) => listed.find((s: HarnessSession) => s.id === id)!;
    assert.equal(byId(claude.session.id).continuation.key, claudeKey);
    assert.equal(byId(claude.session.id).originCwd, workspace.path);
    assert.equal(byId(codex.session.id).continuation.key, codexStored.continuation.key);

    // Resume: the CLI sends the earlier turns, so the mock sees PLUM / FIG again in the new request.
    const turnsBefore = anthropic.turns().length;
    // Two resumes at once (two windows, a double click): one runs, the other is refused.
    clock = performance.now();
    const both = await Promise.allSettled([0, 1].map(() => host.client.call('harness.resume', { id: claude.session.id, interactionMode: 'headless', prompt: 'which word?' })));
    const refused = both.filter((result) => result.status === 'rejected');
    assert.equal(refused.length, 1, JSON.stringify(both));
    assert.match(String((refused[0] as PromiseRejectedResult).reason), /is running; stop it before resuming it \[HARNESS_ALREADY_RUNNING\]/);
    const resumed = both.find((result): result is PromiseFulfilledResult<HarnessLaunch> => result.status === 'fulfilled')!.value;
    assert.equal(resumed.session.continuation.key, claudeKey);
    const again = await outputOf(host.client, claude.session.id);
    t.diagnostic(`claude-code headless resume after a restart: the turn ended after ${(performance.now() - clock).toFixed(0)} ms`);
    assert.deepEqual(texts(again), ['mock reply to: which word?']);
    const resumedTurn = anthropic.turns().slice(turnsBefore).find((request) => JSON.stringify(conversationOf(request)).includes('which word?'))!;
    const said = JSON.stringify(conversationOf(resumedTurn));
    assert.ok(said.includes('remember the word PLUM') && said.includes('mock reply to: remember the word PLUM'), said);
    // The resumed CLI reported the same conversation id: the stored key did not move.
    const afterResume = (await host.client.call('harness.list', { sessionId: session.id })).find((s) => s.id === claude.session.id)!;
    assert.equal(afterResume.continuation.key, claudeKey);
    assert.equal(afterResume.status, 'exited');
    assert.equal(afterResume.exitCode, 0);

    const openaiBefore = openai.turns().length;
    await host.client.call('harness.resume', { id: codex.session.id, interactionMode: 'headless', prompt: 'which fruit?' });
    assert.deepEqual(texts(await outputOf(host.client, codex.session.id)), ['mock reply to: which fruit?']);
    const codexTurn = openai.turns().slice(openaiBefore).at(-1)!;
    const codexSaid = JSON.stringify(conversationOf(codexTurn));
    assert.ok(codexSaid.includes('remember the word FIG') && codexSaid.includes('mock reply to: remember the word FIG'), codexSaid);

    // Each launch, resumes included, was a turn of the session's changes, named by its harness session and launch.
    const launches = (await host.client.call('harness.list', { sessionId: session.id })).map((s) => [s.id, s.launchedAt]);
    const turns = await endedTurns(host.client, session.id, 4);
    assert.deepEqual(
      turns.map((turn) => [turn.source.kind, turn.agent, turn.title]),
      [
        ['harness_run', 'Claude Code', 'remember the word PLUM'],
        ['harness_run', 'Codex', 'remember the word FIG'],
        ['harness_run', 'Claude Code', 'which word?'],
        ['harness_run', 'Codex', 'which fruit?'],
      ],
    );
    assert.ok(turns.every((turn) => turn.endedAt !== null && turn.after !== null));
    // The last launch of each is the one its row shows (the badge finds its turn by harness id and launchedAt).
    for (const [id, launchedAt] of launches) assert.ok(turns.some((turn) => turn.source.id === id && turn.source.seq === launchedAt), `no turn for ${id}`);

    // An Anthropic conversation cannot be continued by Codex: the registry's deterministic error, as the user sees it.
    await assert.rejects(host.client.call('harness.resume', { id: claude.session.id, frontend: 'codex-cli', interactionMode: 'headless', prompt: 'x' }), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(
        error.message,
        "this session's continuation is anthropic-typed; it cannot be resumed with codex-cli (openai). Resume it with agent-sdk or claude-code, or start a new session without the continuation. [HARNESS_PROVIDER_MISMATCH]",
      );
      return true;
    });

    // No secret anywhere the user or the CLI could see it.
    const ledger = JSON.stringify(await host.client.call('ledger.list', { limit: 500 }));
    const shown = JSON.stringify([first, codexOut, again, await host.client.call('harness.list', { sessionId: session.id })]);
    for (const key of [anthropicKey, openaiKey]) {
      assert.ok(!ledger.includes(key), 'the ledger holds no provider key');
      assert.ok(!shown.includes(key), 'no output card or stored session holds a provider key');
      assert.ok(!everythingSaid(anthropic).includes(key) && !everythingSaid(openai).includes(key));
    }
    assert.ok(ledger.includes('harness.launch'));
  });
}
