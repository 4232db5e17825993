// Compiles one agent's AssemblyScript sources against the SDK (agents/sdk/assembly) into a .wasm, with the flags
// every agent is built with. Shared by scripts/build-agents.mjs (the bundled agents) and `omni agent build DIR`
// (user agents), so both produce modules the same way. Agents import the SDK by its package name, `omni-sdk`
// (`import { output } from 'omni-sdk'`), so an agent folder compiles wherever it lives.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name agents import the SDK by. */
export const SDK_PACKAGE = 'omni-sdk';

/** The SDK's abort handler, by the compiler's internal name for it. */
const SDK_ABORT = `~lib/${SDK_PACKAGE}/index/onAbort`;

/** Where the compiler and the SDK are inside the project folder `root`. */
export function agentToolchain(root) {
  return {
    asc: join(root, 'node_modules', 'assemblyscript', 'bin', 'asc.js'),
    sdkDir: join(root, 'agents', 'sdk', 'assembly'),
    compilerModule: join(root, 'agents', 'sdk', 'compileAgent.mjs'),
  };
}

/**
 * Compiles `entry` (an AssemblyScript file) with the project's AssemblyScript. `cwd` is where the compiler runs, so
 * its diagnostics name files relative to it. Never throws for a compile error: `{ ok: false, diagnostics }` carries
 * the compiler's own messages (file(line,col), code, text). Throws when the toolchain itself is missing.
 */
export function compileAgent({ root, entry, cwd }) {
  const { asc, sdkDir } = agentToolchain(root);
  if (!existsSync(asc)) throw new Error(`AssemblyScript is not installed in ${root} (run npm install there)`);
  if (!existsSync(join(sdkDir, 'index.ts'))) throw new Error(`the agent SDK is missing: no ${join(sdkDir, 'index.ts')}`);
  // The compiler finds packages in --path folders as <folder>/<name>/index.ts: a private folder whose only entry
  // is the SDK under its package name ('junction' makes this a directory link on Windows; ignored elsewhere).
  const scratch = mkdtempSync(join(tmpdir(), 'omni-agent-build-'));
  try {
    const packages = join(scratch, 'packages');
    mkdirSync(packages);
    symlinkSync(sdkDir, join(packages, SDK_PACKAGE), 'junction');
    const outFile = join(scratch, 'agent.wasm');
    const run = (withSdkAbort) =>
      spawnSync(
        process.execPath,
        [
          asc,
          entry,
          '-o',
          outFile,
          '--optimize',
          '--runtime',
          'incremental',
          '--path',
          packages,
          // The SDK's onAbort reports where the agent failed before trapping (instead of importing env.abort).
          ...(withSdkAbort ? ['--use', `abort=${SDK_ABORT}`] : []),
          '--noColors',
        ],
        { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
    let result = run(true);
    let diagnostics = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    // An agent that does not use the SDK has no onAbort to alias: compiled as it is, it imports env.abort, which the
    // module check then names.
    if (result.status !== 0 && diagnostics.includes(`Element '${SDK_ABORT}' not found`)) {
      result = run(false);
      diagnostics = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    }
    if (result.error) return { ok: false, diagnostics: `the compiler could not be started: ${result.error.message}` };
    if (result.status !== 0 || !existsSync(outFile)) return { ok: false, diagnostics: diagnostics || `the compiler exited with ${result.status ?? result.signal}` };
    return { ok: true, bytes: readFileSync(outFile), diagnostics };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
