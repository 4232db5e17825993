// Sandboxed spawn overhead: `/bin/true` spawned plainly and through the native sandbox (prepareLaunch, spawn, exit,
// onSuccess, dispose: everything a run pays), alternating in the same process, p50 of each. The goal is the p50
// difference: sandboxed − plain ≤ 25 ms. Run (bundled) by bench/parts/nativeSandbox.mjs; prints one JSON object.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNativeSandbox, type LaunchPolicy } from '../../src-main/node/sandbox/native/nativeSandbox';

const ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 50);

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function exited(argv: string[], env: Record<string, string>, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.slice(0, 3).join(' ')} … exited ${code}`))));
  });
}

async function main() {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-bench-sandbox-')));
  const sandbox = createNativeSandbox();
  const probe = sandbox.probeSandbox();
  if (!probe.usable) throw new Error(probe.problem?.message ?? 'the native sandbox is unusable here');
  const base: LaunchPolicy = { argv: ['/bin/true'], cwd: workspace, workspace, env: {}, network: null, resources: {}, stageWrites: false };
  const variants: Record<string, LaunchPolicy> = {
    bwrap: base,
    staged: { ...base, stageWrites: true, resources: { memBytes: 256 * 1024 * 1024, pids: 256 } },
    network: { ...base, network: { allowDomains: ['example.com'] } },
  };
  const plain: number[] = [];
  const sandboxed: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const sandboxedRun = async (policy: LaunchPolicy) => {
    const started = performance.now();
    const launch = await sandbox.prepareLaunch(policy);
    try {
      await exited(launch.argv, launch.env, launch.cwd);
      await launch.onSuccess?.();
    } finally {
      launch.dispose?.();
    }
    return performance.now() - started;
  };
  try {
    // Warm-up: loads code and fills the page cache for both paths.
    await exited(['/bin/true'], {}, workspace);
    for (const policy of Object.values(variants)) await sandboxedRun(policy);
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await exited(['/bin/true'], {}, workspace);
      plain.push(performance.now() - started);
      for (const [name, policy] of Object.entries(variants)) sandboxed[name].push(await sandboxedRun(policy));
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  const plainMs = p50(plain);
  const result = {
    rounds: ROUNDS,
    bwrap: probe.items[0].via,
    plainMs,
    variants: Object.fromEntries(Object.entries(sandboxed).map(([name, runs]) => [name, { ms: p50(runs), overheadMs: p50(runs) - plainMs }])),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
