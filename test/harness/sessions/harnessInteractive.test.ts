// Interactive harness sessions through the real host: the real Claude Code and Codex TUIs in terminal cards (the
// host's PTY), against the mock providers through the credential proxy on the real keychain. The key is stored
// (Claude Code's --session-id; Codex's thread id read from its session file); a host restart ends the CLI and leaves
// no process; Resume relaunches it with the key in its origin cwd and the mock receives the earlier conversation;
// harness.stop ends the CLI's whole tree. The CLI's environment holds the proxy's stand-in key, never the real one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Disposable } from '../../../src-preload/rpc';
import { isAlive } from '../../../src-main/node/base/processTable';
import { waitFor } from '../../helpers';
import { conversationOf, lastUserText, startMockProvider, type MockProvider } from '../../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../../privateKeyring';
import { tempDir } from '../../helpers';
import { claude, codex, plain, processesWithEnv } from '../realClis';
import { providerAt, skipWithoutClis, startHarnessHost, type Client } from './harnessHost';

/** A terminal card's screen as plain text, read through the contract like the renderer does. */
class CardScreen implements Disposable {
  private output = '';
  private readonly subscription: Disposable;

  constructor(
    private readonly client: Client,
    readonly id: string,
  ) {
    this.subscription = client.subscribe('terminal.output', { id }, { onItem: (event) => event.type === 'data' && (this.output += event.data) });
  }

  text(): string {
    return plain(this.output);
  }

  /**
   * Waits for a pattern, or for a phrase compared without whitespace: a TUI redrawing a line can leave a word cut in
   * two in the plain text ("reme mber").
   */
  async waitFor(pattern: RegExp | string, from = 0): Promise<number> {
    const squash = (text: string) => text.replace(/\s+/g, '');
    const found = () => (typeof pattern === 'string' ? squash(this.text().slice(from)).includes(squash(pattern)) : pattern.test(this.text().slice(from)));
    await waitFor(found, `${String(pattern)} on the card`, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the card said: ${this.text().slice(-1500)}`);
    });
    return this.text().length;
  }

  /** Types a message and submits it (text and Enter apart: one burst ending in "\r" is a paste to a TUI). */
  async say(message: string): Promise<void> {
    const mark = this.text().length;
    await this.client.call('terminal.input', { id: this.id, data: message });
    await this.waitFor(message, mark);
    await this.client.call('terminal.input', { id: this.id, data: '\r' });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

async function answered(mock: MockProvider, message: string, screen: CardScreen): Promise<string> {
  const turn = await waitFor(() => mock.turns().find((request) => lastUserText(request) === message), `the mock receiving "${message}"`, 60_000).catch((error: Error) => {
    const seen = mock.requests.map((request) => `${request.method} ${request.path} last user text: ${JSON.stringify(lastUserText(request))}`);
    throw new Error(`${error.message}; the mock saw: ${seen.join(' | ')}; the card said: ${screen.text().slice(-1500)}`);
  });
  return JSON.stringify(conversationOf(turn));
}

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');

const cases = [
  { frontend: 'claude-code', api: 'anthropic', ready: 'manual mode on', homeVar: 'CLAUDE_CONFIG_DIR', homeDir: 'claude-code/config', keyVar: 'ANTHROPIC_API_KEY' },
  { frontend: 'codex-cli', api: 'openai', ready: 'Ask Codex to do anything', homeVar: 'CODEX_HOME', homeDir: 'codex-cli/home', keyVar: 'OPENAI_API_KEY' },
] as const;

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 300_000);
} else {
  for (const c of cases) {
    test(`interactive ${c.frontend} in a terminal card: key stored, a restart leaves no process, Resume continues the conversation, stop ends the tree`, { skip: skipWithoutClis, timeout: 240_000 }, async (t) => {
      const mock = await startMockProvider(c.api);
      const home = tempDir('harness-home');
      const workspace = tempDir('harness-ws');
      const providers = [c.api === 'anthropic' ? providerAt('anthropic', mock.origin) : providerAt('openai', `${mock.origin}/v1`)];
      let host = await startHarnessHost(home.path, providers);
      const harnessHome = join(home.path, 'harness', c.homeDir);
      t.after(async () => {
        host.client.dispose();
        await host.server.close();
        await mock.close();
        home.cleanup();
        workspace.cleanup();
      });
      const realKey = `sk-real-${randomBytes(18).toString('base64url')}`;
      await host.client.call('credentials.addApiKey', { provider: c.api, apiKey: realKey });
      const session = await host.client.call('session.create', { workspace: workspace.path });

      const started = await host.client.call('harness.start', { sessionId: session.id, frontend: c.frontend, interactionMode: 'interactive' });
      assert.ok(started.terminal, 'an interactive session opens a terminal card');
      assert.equal(started.session.terminalId, started.terminal.id);
      const firstPid = started.terminal.pid;
      // The card runs the CLI's own binary, not a shell in front of it (once the PTY's fork has exec'd it).
      const binary = c.frontend === 'claude-code' ? claude : codex;
      await waitFor(() => readlinkSync(`/proc/${firstPid}/exe`) === binary, `the card's process to be ${binary}`, 10_000);
      const env = environOf(firstPid);
      assert.ok(env.some((entry) => entry.startsWith(`${c.keyVar}=omni-proxy-`)), 'the CLI holds the proxy stand-in key');
      assert.ok(!env.join('\n').includes(realKey), 'never the real key');
      let screen = new CardScreen(host.client, started.terminal.id);
      await screen.waitFor(c.ready);
      await screen.say('remember the word PLUM');
      await answered(mock, 'remember the word PLUM', screen);
      await screen.waitFor('mock reply to: remember the word PLUM');
      screen.dispose();
      const key = await waitFor(async () => (await host.client.call('harness.list', { sessionId: session.id }))[0].continuation.key, 'the stored continuation key', 30_000);
      assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      if (c.frontend === 'claude-code') assert.equal(key, started.session.continuation.key);

      // A host restart ends the CLI with it: nothing of it is left.
      host.client.dispose();
      await host.server.close();
      await waitFor(() => processesWithEnv(c.homeVar, harnessHome).length === 0, `no process with ${c.homeVar}=${harnessHome} after the host stopped`, 10_000);
      host = await startHarnessHost(home.path, providers);
      const [stopped] = await host.client.call('harness.list', { sessionId: session.id });
      assert.equal(stopped.status, 'stopped');
      assert.match(stopped.statusReason ?? '', /Resume continues the conversation/);
      assert.equal(stopped.continuation.key, key);

      const resumed = await host.client.call('harness.resume', { id: stopped.id });
      assert.ok(resumed.terminal);
      assert.equal(resumed.terminal.cwd, workspace.path);
      assert.match(resumed.session.displayCommand ?? '', new RegExp(`resume|${key}`));
      screen = new CardScreen(host.client, resumed.terminal.id);
      await screen.waitFor(c.ready);
      await screen.say('which word was it');
      const said = await answered(mock, 'which word was it', screen);
      assert.ok(said.includes('remember the word PLUM') && said.includes('mock reply to: remember the word PLUM'), said);
      screen.dispose();
      if (c.frontend === 'claude-code') {
        // The resumed TUI goes on writing the same conversation: the stored key is still the one to resume.
        const transcripts = readdirSync(join(harnessHome, 'projects'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith(`${key}.jsonl`));
        assert.equal(transcripts.length, 1);
        await waitFor(() => readFileSync(join(harnessHome, 'projects', transcripts[0]), 'utf8').includes('which word was it'), 'the new turn in the key\'s transcript', 10_000);
      }

      // Stop ends the CLI and everything it started.
      const pid = resumed.terminal.pid;
      const after = await host.client.call('harness.stop', { id: stopped.id });
      assert.equal(after.status, 'stopped');
      await waitFor(() => !isAlive(pid) && processesWithEnv(c.homeVar, harnessHome).length === 0, 'no process of the CLI after stop', 10_000);
      assert.deepEqual(new Set(mock.turns().map((request) => request.apiKey)), new Set([realKey]));

      // Closing the workspace session takes its running CLI along, and the grant the launch made ends.
      const again = await host.client.call('harness.resume', { id: stopped.id });
      const againPid = again.terminal!.pid;
      assert.equal((await host.client.call('consent.grants', { sessionId: session.id })).length, 1);
      await host.client.call('session.close', { id: session.id });
      await waitFor(() => !isAlive(againPid) && processesWithEnv(c.homeVar, harnessHome).length === 0, 'no process of the CLI after the session closed', 10_000);
      const [closed] = await host.client.call('harness.list', { sessionId: session.id });
      assert.equal(closed.status, 'stopped');
      assert.deepEqual(await host.client.call('consent.grants', { sessionId: session.id }), []);
      // The TUIs went on in the conversation they were given: the transcript watch confirmed it, nothing moved the key.
      const ledger = await host.client.call('ledger.list', { sessionId: session.id, limit: 500 });
      assert.ok(!ledger.some((entry) => entry.type === 'harness.key_changed'));
      assert.equal((await host.client.call('harness.list', { sessionId: session.id }))[0].continuation.key, key);
    });
  }
}
