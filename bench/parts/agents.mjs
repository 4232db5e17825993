// The agent runtime's part of `npm run bench`: agentBench.ts (the real sandbox, bundled as the app ships it) in a child process.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsPart } from '../lib/runTsPart.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function measureAgents({ log }) {
  log('  (spawn → first output event: a warm start takes a pooled process, a cold one starts its own)');
  return runTsPart(join(here, 'agentBench.ts'));
}
