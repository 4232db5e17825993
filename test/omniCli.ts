// The omni CLI as the tests run it: `spawn(process.execPath, [omniCli(), ...args])`. That is the CLI's bundle, started
// through the same code-cache loader bin/omni.mjs uses, so a test runs the CLI in the form it ships in. Starting it
// from the TypeScript sources instead (`node --import tsx src-main/cli/omni.ts`) made every start transform and load
// some six hundred modules again, and the CLI tests start it a few hundred times.
//
// The bundle is built here, from the current sources, whenever it is missing or older than any file that went into
// it (esbuild's list of inputs, kept beside it), so a test never runs code older than the tree, and one test file
// run alone needs no build step first. It goes to .cache/test-cli/, not dist/: `npm run build` may be writing dist/
// at the same time, possibly minified. Two levels below the project root, as dist/cli/ is, because the CLI finds
// assets/agents and the project root relative to its own folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { companionEntries, nodeExternals } from '../scripts/nodeBundle.mjs';

const root = resolve(__dirname, '..');
const dir = join(root, '.cache', 'test-cli');
const launcher = join(dir, 'omni.mjs');
const stampFile = join(dir, 'inputs.json');

interface Stamp {
  /** When the build that wrote it started: an input changed after that makes the bundle stale. */
  startedAt: number;
  /** Every file that went into the bundles, relative to the project root. */
  inputs: string[];
}

function isFresh(): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
    for (const name of ['omni', ...Object.keys(companionEntries)]) statSync(join(dir, `${name}.cjs`));
    statSync(launcher);
  } catch {
    return false;
  }
  return stamp.inputs.every((input) => {
    try {
      return statSync(join(root, input)).mtimeMs < stamp.startedAt;
    } catch {
      return false; // gone: some import changed
    }
  });
}

/**
 * Builds the CLI and the scripts it starts beside itself (worker threads, the WASM agent's child) into a folder of
 * its own, then moves each file into place whole: test files run side by side may build at the same moment, and
 * what they build from the same sources is the same, so whichever rename lands last is as good as the first.
 * esbuild runs as a command of its own (the same options as scripts/nodeBundle.mjs), not through its JavaScript API:
 * that would leave a service (a worker thread and an esbuild process) in the test process for the rest of its life.
 */
function build(): void {
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(join(dir, '.build-'));
  try {
    const startedAt = Date.now();
    const entries = { omni: 'src-main/cli/omni.ts', ...companionEntries };
    const result = spawnSync(
      join(root, 'node_modules', '.bin', 'esbuild'),
      [
        ...Object.entries(entries).map(([name, entry]) => `${name}=${entry}`),
        ...['--bundle', '--format=cjs', '--platform=node', '--target=node20', '--sourcemap', '--log-level=warning', '--out-extension:.js=.cjs'],
        ...nodeExternals.map((name) => `--external:${name}`),
        `--outdir=${staging}`,
        `--metafile=${join(staging, 'meta.json')}`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`building the omni CLI for the tests failed (esbuild exit ${result.status}):\n${result.stderr}`);
    const metafile = JSON.parse(readFileSync(join(staging, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const loader = JSON.stringify(join(root, 'bin', 'runWithCodeCache.mjs'));
    writeFileSync(join(staging, 'omni.mjs'), `import { runWithCodeCache } from ${loader};\nrunWithCodeCache(${JSON.stringify(join(dir, 'omni.cjs'))});\n`);
    const stamp: Stamp = { startedAt, inputs: Object.keys(metafile.inputs) };
    writeFileSync(join(staging, 'inputs.json'), JSON.stringify(stamp));
    // The stamp last: until it is in place, the bundles beside it are not taken as fresh.
    const names = [...['omni', ...Object.keys(companionEntries)].flatMap((name) => [`${name}.cjs`, `${name}.cjs.map`]), 'omni.mjs', 'inputs.json'];
    for (const name of names) renameSync(join(staging, name), join(dir, name));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

let checked = false;

/** The script to run with `process.execPath` to start the omni CLI built from the current sources. */
export function omniCli(): string {
  if (!checked) {
    if (!isFresh()) build();
    checked = true;
  }
  return launcher;
}
