// Runs a TypeScript bench part (the real modules, under tsx) in a child process and returns the JSON object it
// prints last on stdout; its stderr's tail explains a failure.
import { spawn } from 'node:child_process';

export function runTsPart(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'] });
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
