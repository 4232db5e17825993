// The audit ledger's part of `npm run bench`: runs ledgerBench.ts (the real modules, under tsx) in a child process
// and returns its figures. See ledgerBench.ts for what is measured against what.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function measureLedger({ log }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'ledgerBench.ts')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ledgerBench.ts exited with ${code}: ${err.trim().split('\n').slice(-6).join('\n')}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`ledgerBench.ts printed no result: ${error.message}`));
      }
    });
    log('  (appends: 3 alternating rounds against a raw INSERT + SHA-256 loop; durable single appends; verify of a 1M-entry ledger)');
  });
}
