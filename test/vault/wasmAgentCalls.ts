import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentHostCalls } from '../../src-main/node/sandbox/wasm/agentHostCalls';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WorkspaceFiles } from '../../src-main/node/sandbox/wasm/workspaceFiles';
import { HandleInjector } from '../../src-main/node/vault/handleInjection';
import type { VaultFixture } from './vaultFixture';

/** A host call's JSON answer as the guest reads it. */
export type HostCallAnswer = { ok: true; [key: string]: unknown } | { ok: false; error: { code: string; message: string; hint: string } };

/**
 * One run of a WASM agent that declares `network` and `capability`: its host calls as the sandbox builds them, with
 * the credential injector, auditing into the fixture's ledger and trusting loopback addresses (the fake upstream), in
 * a workspace of its own under the fixture's home. `call` makes one host call; `calls.dispose()` = the agent stopped.
 */
export function wasmAgentCalls(fixture: VaultFixture, agentId: string, sessionId: string, capability: string) {
  const workspace = join(fixture.home, `ws-${agentId}`);
  mkdirSync(workspace, { recursive: true });
  const calls = new AgentHostCalls({
    agentId,
    sessionId,
    declared: new Set(['network', capability]),
    consent: fixture.consent,
    files: new WorkspaceFiles(workspace),
    store: new AgentStore(fixture.db),
    audit: (entry) => fixture.ledger.append(entry),
    network: { trustedAddresses: new Set(['127.0.0.1', '::1']) },
    credentials: new HandleInjector(fixture.connections.handles, (id) => fixture.connections.credentialFor(id), (entry) => fixture.ledger.append(entry)),
  });
  const call = async (fn: string, req: unknown): Promise<HostCallAnswer> => JSON.parse(await calls.call(fn, JSON.stringify(req))) as HostCallAnswer;
  return { calls, call };
}
