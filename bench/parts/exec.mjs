// The shell tool's part of `npm run bench`: execBench.ts (the real modules, bundled as the app ships them) in a child process.
// See execBench.ts for what is measured against what.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsPart } from '../lib/runTsPart.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function measureExec({ log }) {
  log('  (poll on a 1M-item run against the raw SELECT; kill of a tree with a daemonised grandchild; a run through the worker against a bare spawn)');
  return runTsPart(join(here, 'execBench.ts'));
}
