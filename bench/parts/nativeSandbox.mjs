// The native sandbox's part of `npm run bench`: nativeSandboxBench.ts (the real module, real bwrap, bundled as the app ships it) in a
// child process. See nativeSandboxBench.ts for what is measured against what.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsPart } from '../lib/runTsPart.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function measureNativeSandbox({ log }) {
  log('  (/bin/true: plain spawn vs prepareLaunch + spawn + exit + commit + dispose through the sandbox, alternating; p50 of each)');
  return runTsPart(join(here, 'nativeSandboxBench.ts'));
}
