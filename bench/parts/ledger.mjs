// The audit ledger's part of `npm run bench`: ledgerBench.ts (the real modules, bundled as the app ships them: bench/lib/runTsPart.mjs) in a child process.
// See ledgerBench.ts for what is measured against what.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsPart } from '../lib/runTsPart.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function measureLedger({ log }) {
  log('  (appends: 5 alternating rounds against a raw INSERT + SHA-256 loop; durable single appends; verify of a 1M-entry ledger)');
  return runTsPart(join(here, 'ledgerBench.ts'));
}
