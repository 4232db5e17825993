// A headless Claude Code session through the real host (real keychain, credential proxy, mock Anthropic API whose
// model calls Write): the CLI's permission request arrives as a consent card of the workspace session
// (consent.prompts), the user's answer (consent.answer) decides whether the file is written, and the ledger has the
// decision under the harness's agent id.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ConsentPrompt, HarnessOutput } from '../../../src-preload/contract';
import { lastUserText, startMockProvider } from '../../mockProviders';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../../privateKeyring';
import { tempDir, waitFor } from '../../helpers';
import { writeToolScript } from '../writeToolScript';
import { providerAt, skipWithoutClis, startHarnessHost, type Client } from './harnessHost';

async function outputOf(client: Client, id: string): Promise<HarnessOutput[]> {
  const items: HarnessOutput[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('harness.output', { id }, { onItem: (item) => items.push(item), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  return items;
}

/** The model writes the file the prompt names ("write NAME"), once; then it repeats what the tool said. */
function writeWhatIsAsked(workspace: string) {
  return writeToolScript((req) => {
    const name = /^write (\S+\.txt)$/.exec(lastUserText(req) ?? '')?.[1] ?? 'unnamed.txt';
    return { name: 'Write', input: { file_path: join(workspace, name), content: `content of ${name}` } };
  });
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 240_000);
} else {
  test('headless Claude Code through the host: its Write asks the session consent card; allowed it writes, denied it does not; both in the ledger', { skip: skipWithoutClis, timeout: 200_000 }, async (t) => {
    const home = tempDir('harness-home');
    const workspace = tempDir('harness-ws');
    const anthropic = await startMockProvider('anthropic', { script: writeWhatIsAsked(workspace.path) });
    const host = await startHarnessHost(home.path, [providerAt('anthropic', anthropic.origin)]);
    t.after(async () => {
      host.client.dispose();
      await host.server.close();
      await anthropic.close();
      home.cleanup();
      workspace.cleanup();
    });
    await host.client.call('credentials.addApiKey', { provider: 'anthropic', apiKey: `sk-ant-test-${randomBytes(18).toString('base64url')}` });
    const session = await host.client.call('session.create', { workspace: workspace.path });
    // The session's consent cards, as the renderer watches them.
    const cards: ConsentPrompt[] = [];
    host.client.subscribe('consent.prompts', { sessionId: session.id }, { onItem: (event) => void (event.kind === 'pending' && cards.push(event.prompt)) });

    const allowed = await host.client.call('harness.start', { sessionId: session.id, frontend: 'claude-code', interactionMode: 'headless', prompt: 'write allowed.txt' });
    const first = await waitFor(() => cards[0], 'the consent card for the first Write', 90_000);
    assert.equal(first.capability, 'files.write');
    assert.equal(first.target, 'allowed.txt');
    assert.equal(first.agentId, `harness:claude-code:${allowed.session.id}`);
    await host.client.call('consent.answer', { promptId: first.id, answer: { kind: 'allow_once' } });
    await outputOf(host.client, allowed.session.id);
    assert.equal(readFileSync(join(workspace.path, 'allowed.txt'), 'utf8'), 'content of allowed.txt');

    const denied = await host.client.call('harness.start', { sessionId: session.id, frontend: 'claude-code', interactionMode: 'headless', prompt: 'write denied.txt' });
    const second = await waitFor(() => cards[1], 'the consent card for the second Write', 90_000);
    assert.equal(second.target, 'denied.txt');
    await host.client.call('consent.answer', { promptId: second.id, answer: { kind: 'deny' } });
    const out = await outputOf(host.client, denied.session.id);
    assert.equal(existsSync(join(workspace.path, 'denied.txt')), false);
    assert.match(JSON.stringify(out), /Denied by Omni Shell's consent: the user denied it/);

    const entries = await host.client.call('ledger.list', { sessionId: session.id, limit: 500 });
    const fileGrants = entries.filter((e) => e.type === 'consent.grant' && e.payload.capability === 'files.write');
    assert.equal(fileGrants.length, 1);
    assert.equal(fileGrants[0].actor, 'user');
    const fileDenials = entries.filter((e) => e.type === 'consent.deny' && e.payload.capability === 'files.write');
    assert.equal(fileDenials.length, 1);
    assert.equal(fileDenials[0].actor, 'user');
    assert.equal(fileDenials[0].payload.target, 'denied.txt');
  });
}
