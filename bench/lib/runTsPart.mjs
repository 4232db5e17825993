// Runs a TypeScript bench part in a child process and returns the JSON object it prints last on stdout; its
// stderr's tail explains a failure.
//
// The part is bundled first, exactly as `npm run build` bundles the host (scripts/nodeBundle.mjs), together with
// the scripts the host starts beside itself (worker threads, the WASM agent child), so what is measured is the code
// in the form the app ships it. Under tsx every access to an imported binding goes through an export getter that
// a bundle does not have, which makes tight loops such as the ledger's batched append measurably slower than the
// bundle the host runs (docs/performance.md#how-to-read-these-figures).
import { spawn } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode, companionEntries } from '../../scripts/nodeBundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Two levels below the root, as dist/cli is: the host finds assets/agents at ../../assets from its bundle.
const outdir = join(root, '.cache', 'bench-parts');

export async function runTsPart(file) {
  const name = basename(file).replace(/\.ts$/, '');
  const companions = Object.fromEntries(Object.entries(companionEntries).map(([entry, source]) => [entry, join(root, source)]));
  await bundleForNode({ entryPoints: { [name]: file, ...companions }, outdir });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(outdir, `${name}.cjs`)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${file} exited with ${code}: ${err.trim().split('\n').slice(-6).join('\n')}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`${file} printed no result: ${error.message}`));
      }
    });
  });
}
