// A native agent (sandbox = "native", run in bwrap) that declares the OpenAI-compatible connection, on a real host
// (the real keychain must be there: run the test in test/privateKeyring.ts) with the connection's real key stored,
// its API a local stand-in that accepts only that key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { AgentRunEvent } from '../../src-preload/contract';
import { tempDir } from '../helpers';
import { connectClient, startTestHost } from '../server/connect';
import { startFakeUpstream, type FakeUpstream } from '../vault/fakeUpstream';
import { manifestText, writeAgent } from './agentFolders';

export type Client = Awaited<ReturnType<typeof connectClient>>;

export const CAPABILITY = 'oauth:openai-compatible.api';
/** What the stand-in answers a request made with the real key (`{"credential":"…"}` on its echo route). */
export const ACCEPTED = 'upstream-accepted-the-real-key';

export interface ConnectionStage {
  client: Client;
  upstream: FakeUpstream;
  realKey: string;
  workspace: string;
}

/**
 * Starts the stand-in and a host (OS keychain), stores a fresh real key as the openai-compatible connection pointing
 * at the stand-in, and installs `agent` with `script` (an sh entry) declaring CAPABILITY. All of it ends with `t`.
 */
export async function startConnectionStage(t: TestContext, agent: string, script: string): Promise<ConnectionStage> {
  const upstream = await startFakeUpstream();
  const realKey = `sk-local-${randomBytes(24).toString('base64url')}`;
  upstream.accept(realKey, ACCEPTED);
  const workspace = tempDir('ws');
  const host = await startTestHost(undefined, 0, 'os');
  const client = await connectClient(host.server);
  t.after(async () => {
    client.dispose();
    await host.cleanup();
    await upstream.close();
    workspace.cleanup();
  });
  const folder = writeAgent(
    join(host.home, 'agents'),
    agent,
    manifestText({ name: `"${agent}"`, entry: '"agent.sh"', sandbox: '"native"', capabilities: `["${CAPABILITY}"]`, oauth_scopes: '["openai-compatible:api"]' }),
    { path: 'agent.sh', bytes: Buffer.from(script) },
  );
  chmodSync(join(folder, 'agent.sh'), 0o755);
  await client.call('credentials.addApiKey', { provider: 'openai-compatible', apiKey: realKey, baseUrl: `${upstream.origin}/v1` });
  return { client, upstream, realKey, workspace: workspace.path };
}

/** Every event of the run until it ends; asserts that it completed. */
export async function runEvents(client: Client, runId: string): Promise<AgentRunEvent[]> {
  const all: AgentRunEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('agent.events', { runId }, { onItem: (event) => all.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  const last = all.at(-1);
  assert.ok(last?.kind === 'ended' && last.run.outcome === 'completed', JSON.stringify(last));
  return all;
}

/** What the agent wrote to its `main` card, chunk by chunk. */
export const mainCard = (all: AgentRunEvent[]): string[] => all.flatMap((e) => (e.kind === 'output' && e.cardId === 'main' ? [e.data] : []));
