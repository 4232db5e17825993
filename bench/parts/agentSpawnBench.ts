// Agent spawn → first output event, warm (a process from the pool) and cold (a new process), for the WASM sandbox.
// Run: node --import tsx bench/parts/agentSpawnBench.ts [runs]. Prints JSON. Measures the built child bundle
// (dist/cli/wasmAgentChild.cjs, `npm run build`) when there is one, and the TypeScript child under tsx (development).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CapabilityDeniedError } from '../../src-main/node/consent/consentErrors';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import type { SandboxConsent } from '../../src-main/node/sandbox/wasm/sandboxConsent';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../../test/helpers';
import { callingGuest, wat } from '../../test/sandbox/guests';

const runs = Number(process.argv[2] ?? 10);
const root = join(__dirname, '..', '..');
const bundle = join(root, 'dist/cli/wasmAgentChild.cjs');

const denyAll: SandboxConsent = {
  authorize: (use) => {
    throw new CapabilityDeniedError(use.capability, use.target ?? null, 'the bench grants nothing');
  },
  ask: async () => ({ decision: 'deny', reason: 'the bench grants nothing' }),
  list: () => [],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

async function measure(sandbox: WasmSandbox, module: Uint8Array, workspace: string): Promise<number> {
  const started = performance.now();
  const agent = await sandbox.start({
    agentId: 'bench',
    sessionId: 'ses_bench',
    workspaceRoot: workspace,
    module,
    capabilities: [],
    limits: { memBytes: 64 * 1024 * 1024, cpuMillicores: 1000, deadlineMs: 10_000 },
  });
  const first = new Promise<number>((resolve) => agent.calls.onOutput(() => resolve(performance.now() - started)));
  await agent.invoke({ schema_version: '0.1', agent_id: 'bench', prompt: 'hi', context_refs: [] });
  const ms = await first;
  agent.kill();
  return ms;
}

async function main(): Promise<void> {
  const dir = tempDir('spawn-bench');
  const store = new AgentStore(openDatabase(join(dir.path, 'sessions.db')));
  const module = await wat(callingGuest([{ fn: 'output', req: { content_type: 'text/plain', data: 'first' } }]));
  const result: Record<string, unknown> = { runs };
  try {
    for (const [name, childScript] of [
      ['bundle', existsSync(bundle) ? bundle : null],
      ['tsx', undefined],
    ] as const) {
      if (childScript === null) continue;
      const cold = new WasmSandbox({ consent: denyAll, store, warmProcesses: 0, childScript });
      const warm = new WasmSandbox({ consent: denyAll, store, warmProcesses: 1, childScript });
      const coldMs: number[] = [];
      const warmMs: number[] = [];
      for (let i = 0; i < runs; i++) {
        coldMs.push(await measure(cold, module, dir.path));
        await warm.whenWarm();
        warmMs.push(await measure(warm, module, dir.path));
      }
      cold.dispose();
      warm.dispose();
      result[name] = { coldMedianMs: round(median(coldMs)), coldMaxMs: round(Math.max(...coldMs)), warmMedianMs: round(median(warmMs)), warmMaxMs: round(Math.max(...warmMs)) };
    }
  } finally {
    dir.cleanup();
  }
  console.log(JSON.stringify(result, null, 2));
}

void main();
