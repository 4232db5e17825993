import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The temporary name a write of `file` uses: beside it (same filesystem, so the rename is atomic), marked with the writer's pid. */
const tempPrefix = (file: string) => `.${basename(file)}.tmp-`;

/**
 * Replaces `file` with `data` so that a crash at any moment leaves either the old content or the new, never a mix:
 * the data goes to a temporary file in the same folder, is fsynced, renamed over the file, and the folder is fsynced
 * so the rename itself survives a power loss. A killed writer can leave its temporary file behind
 * (removeLeftoverTemps takes those away).
 */
export function writeFileDurably(file: string, data: string | Buffer, options: { mode?: number; beforeRename?: () => void } = {}): void {
  const dir = dirname(file);
  const temp = join(dir, `${tempPrefix(file)}${process.pid}-${randomBytes(4).toString('hex')}`);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, options.mode ?? 0o644);
  try {
    let put = 0;
    while (put < bytes.length) put += writeSync(fd, bytes, put, bytes.length - put);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    options.beforeRename?.();
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(dir);
}

/** fsync on the folder: makes a rename or unlink in it durable. */
export function syncFolder(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the rename has happened regardless.
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes temporary files that earlier writes of `file` left behind when they were killed. Call it only while no
 * write of `file` can be in flight (holding its lock), or a live writer's temporary file could go.
 */
export function removeLeftoverTemps(file: string): number {
  const prefix = tempPrefix(file);
  let removed = 0;
  for (const name of readdirSync(dirname(file))) {
    if (!name.startsWith(prefix)) continue;
    rmSync(join(dirname(file), name), { force: true });
    removed++;
  }
  return removed;
}
