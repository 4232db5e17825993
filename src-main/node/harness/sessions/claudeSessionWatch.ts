import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Disposable } from '../../../../src-preload/rpc';
import { isUuid } from '..';

const POLL_MS = 1000;

export type ClaudeSessionSighting = { kind: 'confirmed' } | { kind: 'other'; key: string };

/**
 * The interactive Claude Code TUI prints no events, so what it writes is read from its transcripts,
 * `<CLAUDE_CONFIG_DIR>/projects/<project>/<session id>.jsonl`, each line carrying `sessionId` and `cwd`. It was told
 * its id (--session-id / --resume); a transcript of that id written since the launch confirms it. A new transcript
 * of another id for our cwd (a CLI version that forks a resumed conversation, say) is the conversation a later resume
 * needs, provided the id is a UUID, equals the file's name and no other stored session owns it.
 */
export function findClaudeSession(configDir: string, cwd: string, key: string, since: number, taken: (key: string) => boolean): ClaudeSessionSighting | undefined {
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return undefined;
  let other: string | undefined;
  for (const project of safeList(projects)) {
    for (const name of safeList(join(projects, project))) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
      if (!isUuid(id)) continue;
      const file = join(projects, project, name);
      if (!isNewerThan(file, since)) continue;
      const recorded = recordedSession(file);
      if (recorded?.cwd !== cwd || recorded.sessionId !== id) continue;
      if (id === key) return { kind: 'confirmed' };
      if (!taken(id)) other = id;
    }
  }
  return other ? { kind: 'other', key: other } : undefined;
}

/** Polls findClaudeSession until the launch's id is confirmed or another one is seen (then reports it once). */
export function watchClaudeSession(configDir: string, cwd: string, key: string, since: number, taken: (key: string) => boolean, onOtherKey: (key: string) => void): Disposable {
  let done = false;
  const timer = setInterval(() => {
    const seen = done ? undefined : findClaudeSession(configDir, cwd, key, since, taken);
    if (!seen) return;
    done = true;
    clearInterval(timer);
    if (seen.kind === 'other') onOtherKey(seen.key);
  }, POLL_MS);
  return { dispose: () => { done = true; clearInterval(timer); } };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isNewerThan(file: string, since: number): boolean {
  try {
    return statSync(file).mtimeMs >= since - 1000;
  } catch {
    return false;
  }
}

/** The first line that names a session and a cwd (the first lines of a transcript are queue records without cwd). */
function recordedSession(file: string): { sessionId: string; cwd: string } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(256 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    for (const line of buffer.toString('utf8', 0, length).split('\n')) {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (typeof record.sessionId === 'string' && typeof record.cwd === 'string') return { sessionId: record.sessionId, cwd: record.cwd };
      } catch {
        // a cut-off line
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
