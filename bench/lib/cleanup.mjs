// Every child process and temp dir the bench creates is registered here, so an error, Ctrl+C or a plain exit
// never leaves a Chromium, a host (and its shells) or a temp home behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** pid → how to end it: 'host' gets SIGTERM (it closes its terminals itself), 'group' is a process group we own. */
const children = new Map();
const dirs = new Set();

export function tempDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `omni-bench-${label}-`));
  dirs.add(dir);
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  dirs.delete(dir);
}

/**
 * Registers a child. kind 'group': spawned with `detached: true`, ended with its whole process group
 * (Chromium's zygote and renderers). kind 'host': the omni host, ended with SIGTERM so it kills its ptys.
 * kind 'proc': anything else, ended by pid.
 */
export function adopt(child, kind = 'proc') {
  if (child.pid === undefined) return child;
  const pid = child.pid;
  children.set(pid, kind);
  child.once('exit', () => children.delete(pid));
  return child;
}

function signal(pid, kind, sig) {
  try {
    process.kill(kind === 'group' ? -pid : pid, sig);
  } catch {
    // Already gone.
  }
}

/** Stops one registered child: the polite signal, then SIGKILL after `graceMs`. Resolves once it has exited. */
export function stop(child, graceMs = 3000) {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const kind = children.get(pid) ?? 'proc';
  return new Promise((resolve) => {
    const timer = setTimeout(() => signal(pid, kind, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      // A group may still hold helpers after its leader exits.
      if (kind === 'group') signal(pid, kind, 'SIGKILL');
      resolve();
    });
    signal(pid, kind, 'SIGTERM');
  });
}

/** Synchronous last resort, safe inside an 'exit' handler. */
export function killEverythingNow() {
  for (const [pid, kind] of children) signal(pid, kind, kind === 'host' ? 'SIGTERM' : 'SIGKILL');
  children.clear();
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: a host that is still stopping may recreate files for a moment.
    }
  }
  dirs.clear();
}

let installed = false;
export function installCleanupHandlers() {
  if (installed) return;
  installed = true;
  process.on('exit', killEverythingNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      console.error(`\nbench: ${sig} received, cleaning up`);
      killEverythingNow();
      process.exit(130);
    });
  }
}
