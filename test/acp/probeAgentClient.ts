// Installs test/acp/fixtures/probeAgent.cjs the way the in-app installer lays out an adapter
// (<dir>/node_modules/<pkg>/index.js, <dir>/node_modules/.bin/<name> → ../<pkg>/index.js) and drives a launched one
// over its stdio: one JSON command per line, one JSON answer per line.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AcpAgentProcess } from '../../src-main/node/acp/acpProcess';

export const PROBE_AGENT = 'probe-agent';

/** Puts the probe agent into `adapterDir` as an installed adapter; returns the package folder. */
export function installProbeAgent(adapterDir: string): string {
  const pkg = join(adapterDir, 'node_modules', PROBE_AGENT);
  mkdirSync(join(adapterDir, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(__dirname, 'fixtures', 'probeAgent.mjs'), join(pkg, 'index.js'));
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ name: PROBE_AGENT, version: '0.0.0', type: 'module', bin: { [PROBE_AGENT]: 'index.js' } })}\n`);
  chmodSync(join(pkg, 'index.js'), 0o755);
  symlinkSync(`../${PROBE_AGENT}/index.js`, join(adapterDir, 'node_modules', '.bin', PROBE_AGENT));
  return pkg;
}

export type ProbeAnswer = { id: number; ok?: boolean; error?: string; [key: string]: unknown };

export interface ProbeClient {
  ask(command: Record<string, unknown>, timeoutMs?: number): Promise<ProbeAnswer>;
  stderr(): string;
}

export function probeClient(agent: AcpAgentProcess): ProbeClient {
  let next = 1;
  const waiting = new Map<number, (answer: ProbeAnswer) => void>();
  let stderr = '';
  agent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: agent.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as ProbeAnswer;
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  return {
    stderr: () => stderr,
    ask(command, timeoutMs = 20_000) {
      const id = next++;
      return new Promise<ProbeAnswer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(command)} in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        agent.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
      });
    },
  };
}

/** Host processes whose command line holds `marker` (read from /proc). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found.filter((pid) => pid !== process.pid);
}
