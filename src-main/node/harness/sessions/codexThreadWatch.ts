import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Disposable } from '../../../../src-preload/rpc';
import { isUuid } from '..';

const POLL_MS = 500;
const UUID_AT_END = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/**
 * The interactive Codex TUI prints no machine-readable events, so its thread id is read from the rollout file it
 * writes under `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, whose first line is
 * `{"type":"session_meta","payload":{"id":<thread id>,"cwd":…}}`. A file counts only if it appeared after the launch,
 * its id is a UUID, the id in its name equals the id it records, and it records our cwd; ids other sessions own are
 * skipped.
 */
export function watchCodexThread(codexHome: string, cwd: string, since: number, taken: (key: string) => boolean, onKey: (key: string) => void): Disposable {
  let done = false;
  const timer = setInterval(() => {
    if (done) return;
    const key = findNewThread(join(codexHome, 'sessions'), cwd, since, taken);
    if (key) {
      done = true;
      clearInterval(timer);
      onKey(key);
    }
  }, POLL_MS);
  return { dispose: () => { done = true; clearInterval(timer); } };
}

export function findNewThread(sessionsDir: string, cwd: string, since: number, taken: (key: string) => boolean): string | undefined {
  for (const file of recentRollouts(sessionsDir, since)) {
    const fromName = UUID_AT_END.exec(file)?.[1];
    if (!fromName || taken(fromName)) continue;
    const meta = firstRecord(file);
    const payload = meta && typeof meta.payload === 'object' && meta.payload !== null ? (meta.payload as Record<string, unknown>) : undefined;
    if (meta?.type !== 'session_meta' || !payload) continue;
    if (typeof payload.id !== 'string' || !isUuid(payload.id) || payload.id.toLowerCase() !== fromName.toLowerCase()) continue;
    if (payload.cwd !== cwd) continue;
    return payload.id;
  }
  return undefined;
}

/** Rollout files changed since `since`, in the newest day folders (the launch's day, or the next one after midnight). */
function recentRollouts(sessionsDir: string, since: number): string[] {
  if (!existsSync(sessionsDir)) return [];
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort().reverse();
    } catch {
      return;
    }
    for (const name of depth < 3 ? entries.slice(0, 2) : entries) {
      const path = join(dir, name);
      if (depth < 3) walk(path, depth + 1);
      else if (name.startsWith('rollout-') && name.endsWith('.jsonl')) {
        try {
          if (statSync(path).mtimeMs >= since - 1000) found.push(path);
        } catch {
          // removed meanwhile
        }
      }
    }
  };
  walk(sessionsDir, 0);
  return found;
}

function firstRecord(file: string): Record<string, unknown> | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    // session_meta carries the base instructions too: its line can be long.
    const buffer = Buffer.alloc(1024 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const line = buffer.toString('utf8', 0, length).split('\n')[0];
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
