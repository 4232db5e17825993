// How the host's Node code is bundled, shared by the build (scripts/build.mjs → dist/) and the TypeScript bench
// parts (bench/lib/runTsPart.mjs), so a benchmark runs the code in the form the app ships it.
import { build } from 'esbuild';
import { zodEnglishOnly } from './zodEnglishOnly.mjs';

// Native modules are loaded at run time from the build that matches the running process (Node or Electron).
export const nodeExternals = ['better-sqlite3', 'node-pty', 'keytar', 'electron', 'bufferutil', 'utf-8-validate'];

/**
 * Scripts the host starts beside its own bundle (they are looked up next to it, by these names): the ledger's
 * verify threads, the event log's writer thread, and the child process each WASM agent runs in.
 */
export const companionEntries = {
  verifyRangeWorker: 'src-main/node/ledger/verifyRangeWorker.ts',
  eventLogWriterWorker: 'src-main/node/eventlog/eventLogWriterWorker.ts',
  wasmAgentChild: 'src-main/node/sandbox/wasm/childEntry.ts',
};

/** Bundles `entryPoints` (as esbuild takes them: a list, or names → files) for Node 20, CommonJS. */
export function bundleForNode({ entryPoints, outfile, outdir }) {
  return build({
    entryPoints,
    ...(outfile ? { outfile } : { outdir, outExtension: { '.js': '.cjs' } }),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: ['node20'],
    sourcemap: true,
    external: nodeExternals,
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  });
}
