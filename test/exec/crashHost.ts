import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Starts fixtures/execHost.ts on `home` (spawning `request` if given): `next(key)` waits for the first line it printed
 * with that key, `lines` resolves with every line once it exits cleanly or is killed (SIGKILL, a simulated crash).
 */
export function startHost(home: string, request?: object): { child: ChildProcess; lines: Promise<Record<string, unknown>[]>; next: (key: string) => Promise<Record<string, unknown>> } {
  const args = ['--import', 'tsx', join(__dirname, 'fixtures', 'execHost.ts'), home, ...(request ? [JSON.stringify(request)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const seen: Record<string, unknown>[] = [];
  const waiters: { key: string; resolve: (value: Record<string, unknown>) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) {
      const value = JSON.parse(part) as Record<string, unknown>;
      seen.push(value);
      for (const waiter of waiters.filter((w) => w.key in value)) waiter.resolve(value);
    }
  });
  const lines = new Promise<Record<string, unknown>[]>((resolve, reject) =>
    child.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? resolve(seen) : reject(new Error(`host exited ${code}: ${stderr}`)))),
  );
  const next = (key: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = seen.find((value) => key in value);
      if (found) return resolve(found);
      waiters.push({ key, resolve });
      lines.then(() => reject(new Error(`the host ended without printing ${key}`)), reject);
    });
  return { child, lines, next };
}
