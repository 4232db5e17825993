// The agent runtime's part of `npm run bench`: runs agentBench.ts (the real sandbox, under tsx) in a child process.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function measureAgents({ log }) {
  log('  (spawn → first output event: a warm start takes a pooled process, a cold one starts its own)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'agentBench.ts')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`agentBench.ts exited with ${code}: ${err.trim().split('\n').slice(-6).join('\n')}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`agentBench.ts printed no result: ${error.message}`));
      }
    });
  });
}
