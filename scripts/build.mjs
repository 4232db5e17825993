// Builds everything the app runs from: the renderer bundle, the host/CLI bundle and, where their sources exist,
// the Electron main, host process and preload bundles, and the bundled agents (scripts/build-agents.mjs). Run by `npm install` (prepare) and `npm run build`;
// `--production` (or NODE_ENV=production) minifies and puts React in production mode, as `npm run dist` ships it,
// and leaves out the renderer's test and benchmark hooks (window.__omniTerminalStats) unless OMNI_BENCH_HOOKS=1, which
// the bench's production build sets (scripts/rendererBundle.mjs).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode, companionEntries } from './nodeBundle.mjs';
import { bundleRenderer } from './rendererBundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const started = Date.now();
const production = process.env.NODE_ENV === 'production' || process.argv.includes('--production');

const jobs = [];

rmSync(join(out, 'renderer'), { recursive: true, force: true });
mkdirSync(join(out, 'renderer'), { recursive: true });
if (existsSync(join(root, 'src-renderer/app/main.tsx'))) {
  jobs.push(
    bundleRenderer({ root, outdir: join(out, 'renderer'), production }).then(() =>
      copyFileSync(join(root, 'src-renderer/app/index.html'), join(out, 'renderer/index.html')),
    ),
  );
}

const nodeBundle = (entry, outfile) => bundleForNode({ entryPoints: [join(root, entry)], outfile: join(out, outfile) });

jobs.push(nodeBundle('src-main/cli/omni.ts', 'cli/omni.cjs'));
// Worker threads and child processes the host starts load their own bundle from beside the entry point's.
for (const [name, entry] of Object.entries(companionEntries)) {
  for (const dir of ['cli', 'electron']) jobs.push(nodeBundle(entry, `${dir}/${name}.cjs`));
}
for (const [entry, outfile] of [
  ['src-main/electron-main/main.ts', 'electron/main.js'],
  ['src-main/electron-main/hostProcess.ts', 'electron/hostProcess.js'],
  ['src-preload/preload.ts', 'electron/preload.js'],
]) {
  if (existsSync(join(root, entry))) jobs.push(nodeBundle(entry, outfile));
}

// The bundled agents (AssemblyScript → assets/agents/), in a child process so a compile error is reported as such.
jobs.push(
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/build-agents.mjs')], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`building the bundled agents failed (exit ${code})`))));
  }),
);

await Promise.all(jobs);
console.log(`build: done in ${Date.now() - started} ms → dist/`);
