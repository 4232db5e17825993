import type { WasmAgent } from '../../src-main/node/sandbox/wasm/wasmAgent';
import { WasmSandbox, type WasmSandboxOptions } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import type { ResourceLimits } from '../../src-main/node/sandbox/wasm/resourceWatch';
import type { LedgerAppend } from '../../src-main/node/ledger/ledger';
import { tempDir } from '../helpers';
import { FixedGrants } from './fixedGrants';
import { testStore, wat, type GuestResponse } from './guests';

export const AGENT = 'test-agent';
export const SESSION = 'ses_test';
export const LIMITS: ResourceLimits = { memBytes: 16 * 1024 * 1024, cpuMillicores: 1000, deadlineMs: 10_000 };

/** A sandbox on a temp database and workspace, with a FixedGrants policy and a recorded audit trail. */
export function sandboxHarness(options: Partial<WasmSandboxOptions> = {}) {
  const dir = tempDir('sandbox');
  const consent = new FixedGrants();
  const audited: LedgerAppend[] = [];
  const sandbox = new WasmSandbox({ consent, store: testStore(dir.path), audit: (e) => audited.push(e), warmProcesses: 1, ...options });
  return {
    dir: dir.path,
    consent,
    audited,
    sandbox,
    /** Starts `watText` as the test agent with `capabilities`, collecting what it writes to stdout as responses. */
    async run(watText: string, capabilities: string[], workspaceRoot: string, limits: Partial<ResourceLimits> = {}) {
      const agent = await sandbox.start({
        agentId: AGENT,
        sessionId: SESSION,
        workspaceRoot,
        module: await wat(watText),
        capabilities,
        limits: { ...LIMITS, ...limits },
      });
      const responses: GuestResponse[] = [];
      agent.onLog(({ text }) => responses.push(JSON.parse(text) as GuestResponse));
      return { agent, responses };
    },
    cleanup() {
      sandbox.dispose();
      dir.cleanup();
    },
  };
}

export function invokeInput(prompt = 'go'): Record<string, unknown> {
  return { schema_version: '0.1', agent_id: AGENT, prompt, context_refs: [] };
}

export type { WasmAgent };
