import { spawn } from 'node:child_process';
import type { LaunchPolicy, NativeSandbox, PreparedLaunch } from '../../../src-main/node/sandbox/native/nativeSandbox';

/**
 * Runs a policy the way the exec worker does: prepareLaunch, spawn the returned argv with exactly the returned env
 * in its own process group, then onSuccess on exit code 0 or onFailure otherwise (unless settle is false), and
 * dispose last.
 */
export interface SandboxedRun {
  pid: number;
  launch: PreparedLaunch;
  /** Output so far (stdout and stderr interleaved). */
  output(): string;
  /** SIGKILL to the whole process group, as a timeout or the kill button does. */
  kill(): void;
  /** Resolves when the process has exited and onSuccess/onFailure has run; dispose has not run yet. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; limitHit: string | null; commitError: Error | null }>;
  dispose(): void;
}


export async function startSandboxed(sandbox: NativeSandbox, policy: LaunchPolicy, options: { settle?: boolean } = {}): Promise<SandboxedRun> {
  const launch = await sandbox.prepareLaunch(policy);
  const child = spawn(launch.argv[0], launch.argv.slice(1), { env: launch.env, cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  launch.afterSpawn?.(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal }))).then(
    async ({ code, signal }) => {
      let commitError: Error | null = null;
      try {
        if (options.settle === false) {
          // the test settles the run itself
        } else if (code === 0) await launch.onSuccess?.();
        else await launch.onFailure?.();
      } catch (error) {
        commitError = error as Error;
      }
      return { code, signal, output, limitHit: launch.limitHit?.() ?? null, commitError };
    },
  );
  return {
    pid: child.pid!,
    launch,
    output: () => output,
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
    done,
    dispose: () => launch.dispose?.(),
  };
}

/** Runs to the end and disposes. */
export async function runSandboxed(sandbox: NativeSandbox, policy: LaunchPolicy) {
  const run = await startSandboxed(sandbox, policy);
  try {
    return await run.done;
  } finally {
    run.dispose();
  }
}

/** A policy for `sh -c script` in `workspace` with nothing granted. */
export function shPolicy(workspace: string, script: string, extra: Partial<LaunchPolicy> = {}): LaunchPolicy {
  return { argv: ['sh', '-c', script], cwd: workspace, workspace, env: {}, network: null, resources: {}, stageWrites: false, ...extra };
}
