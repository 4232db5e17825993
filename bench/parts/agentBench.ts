// Agent spawn → first output event, through the real WASM sandbox (child process, module checks, memory cap) and
// the real consent engine: warm (a process from the pool) and cold (a process started for the agent). Run by
// bench/parts/agents.mjs (bundled); prints one JSON object on stdout. The goals are absolute (≤ 30 ms warm,
// ≤ 150 ms cold): a start has no meaningful reference to be a ratio of.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { openDatabase } from '../../src-main/node/store/database';

const ROUNDS = Number(process.env.BENCH_AGENT_ROUNDS ?? 15);

/** The smallest agent that answers: one output chunk on invoke. */
const GUEST = `(module
  (import "omni" "output" (func $output (param i32 i32) (result i64)))
  (memory (export "memory") 2)
  (data (i32.const 16) "{\\"content_type\\":\\"text/plain\\",\\"data\\":\\"hi\\",\\"chunk_id\\":\\"c\\"}")
  (global $next (mut i32) (i32.const 4096))
  (func (export "omni_alloc") (param $len i32) (result i32)
    (local $at i32) global.get $next local.set $at
    global.get $next local.get $len i32.add global.set $next local.get $at)
  (func (export "omni_invoke") (param i32 i32) i32.const 16 i32.const 56 call $output drop))`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const wabt = await (await import('wabt')).default();
  const module = new Uint8Array(wabt.parseWat('bench.wat', GUEST).toBinary({}).buffer);
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-agents-'));
  const db = openDatabase(join(dir, 'sessions.db'));
  const ledger = new Ledger(db);
  const consent = new ConsentEngine(db, ledger);
  const workspace = mkdtempSync(join(tmpdir(), 'omni-bench-ws-'));
  const measure = async (sandbox: WasmSandbox, warm: boolean): Promise<number> => {
    if (warm) await sandbox.whenWarm();
    const started = performance.now();
    const agent = await sandbox.start({
      agentId: 'bench',
      sessionId: 'ses_benchmark01',
      workspaceRoot: workspace,
      module,
      capabilities: [],
      limits: { memBytes: 1024 * 1024, cpuMillicores: 1000, deadlineMs: 10_000 },
    });
    const first = new Promise<number>((resolve) => agent.calls.onOutput(() => resolve(performance.now() - started)));
    await agent.invoke({ schema_version: '0.1', type: 'input', agent_id: 'bench', prompt: 'go', context_refs: [] });
    let timer: NodeJS.Timeout | undefined;
    const none = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the bench agent produced no output')), 5000);
    });
    const ms = await Promise.race([first, none]).finally(() => clearTimeout(timer));
    agent.dispose();
    return ms;
  };
  // The agent process as the app ships it: bench/lib/runTsPart.mjs bundles it beside this part, where the sandbox
  // looks for it.
  const warmSandbox = new WasmSandbox({ consent, store: new AgentStore(db), warmProcesses: 1 });
  const coldSandbox = new WasmSandbox({ consent, store: new AgentStore(db), warmProcesses: 0 });
  const warm: number[] = [];
  const cold: number[] = [];
  try {
    await measure(warmSandbox, true); // the first start pays for loading code in this process
    for (let round = 0; round < ROUNDS; round++) {
      warm.push(await measure(warmSandbox, true));
      cold.push(await measure(coldSandbox, false));
    }
  } finally {
    warmSandbox.dispose();
    coldSandbox.dispose();
    consent.dispose();
    ledger.dispose();
    db.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, warmMs: median(warm), coldMs: median(cold), runs: { warm, cold } })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
