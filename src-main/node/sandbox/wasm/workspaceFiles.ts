import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { HostCallError } from './hostCallError';

/** A file an agent may see, by its path inside the workspace (forward slashes) and on disk (no symlinks left). */
export interface ResolvedPath {
  relative: string;
  real: string;
}

export interface FileEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const HINT_INSIDE = 'use a path relative to the workspace root that stays inside it (no "..", no absolute paths, no links leading out)';

function outside(path: string, why: string): HostCallError {
  return new HostCallError('outside_root', `"${path}" is outside the workspace: ${why}`, HINT_INSIDE);
}

function exists(path: string, what: string): HostCallError {
  return new HostCallError('exists', `"${path}" already exists (${what}); nothing was written`, 'leave it as it is, or write elsewhere (files_write replaces a file)');
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The only way an agent reaches files: every path is resolved here, in the host, to its real path (the target's and
 * every existing ancestor's, symlinks followed by the OS) and refused unless that stays inside the workspace. A
 * WASI preopen is not enough: a symlinked directory that already exists inside the workspace would lead out of it.
 * Opening uses O_NOFOLLOW, and on Linux the opened descriptor's own path is checked again, so a link swapped in
 * between the check and the open is caught too. Writes go to a temporary file beside the target and are renamed
 * over it, so a killed agent never leaves half a file.
 */
export class WorkspaceFiles {
  readonly root: string;

  constructor(
    root: string,
    private readonly limits: { maxReadBytes: number; maxWriteBytes: number } = { maxReadBytes: 8 * 1024 * 1024, maxWriteBytes: 8 * 1024 * 1024 },
  ) {
    this.root = realpathSync(root);
  }

  /** The request's path as segments, refusing what can only mean "elsewhere" before touching the disk. */
  private segments(path: unknown): string[] {
    if (typeof path !== 'string') throw new HostCallError('bad_request', '"path" must be a string', 'send {"path": "relative/path"}');
    if (path.includes('\0')) throw new HostCallError('bad_request', 'the path contains a NUL character', HINT_INSIDE);
    if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) throw outside(path, 'it is an absolute path');
    const parts = path.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) throw outside(path, 'it climbs out with ".."');
    return parts;
  }

  /** The path as asked, normalised to forward slashes inside the workspace ("" for its root); refuses "..", absolute paths. */
  lexical(path: unknown): string {
    return this.segments(path).join('/');
  }

  private isInside(real: string): boolean {
    const rel = relative(this.root, real);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
  }

  private relativeOf(real: string): string {
    return relative(this.root, real).split(sep).join('/');
  }

  private realInside(path: string, absolute: string): string {
    const real = realpathSync(absolute);
    if (!this.isInside(real)) throw outside(path, `it leads through a symbolic link to ${real}`);
    return real;
  }

  /** An existing file or directory. */
  resolveExisting(path: unknown): ResolvedPath {
    const parts = this.segments(path);
    const absolute = join(this.root, ...parts);
    // Each ancestor first, so a link out is reported as such even when the target behind it does not exist.
    let at = this.root;
    for (const part of parts) {
      at = join(at, part);
      if (!lstatOrNull(at)) throw new HostCallError('not_found', `"${path as string}" does not exist in the workspace`, 'list the folder to see what is there');
      this.realInside(path as string, at);
    }
    const real = this.realInside(path as string, absolute);
    return { relative: this.relativeOf(real), real };
  }

  /** After open: the descriptor's own path must still be inside (Linux; elsewhere the O_NOFOLLOW open stands alone). */
  private checkOpened(fd: number, path: string): void {
    if (process.platform !== 'linux') return;
    const opened = readlinkSync(`/proc/self/fd/${fd}`);
    if (!this.isInside(opened)) {
      closeSync(fd);
      throw outside(path, 'it changed into a link leading out while it was being opened');
    }
  }

  read(path: unknown): { relative: string; data: Buffer } {
    const resolved = this.resolveExisting(path);
    let fd: number;
    try {
      fd = openSync(resolved.real, constants.O_RDONLY | NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw outside(path as string, 'it became a symbolic link');
      throw error;
    }
    this.checkOpened(fd, path as string);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new HostCallError('bad_request', `"${path as string}" is not a file`, 'use files_list for folders');
      if (stat.size > this.limits.maxReadBytes) {
        throw new HostCallError('too_large', `"${path as string}" is ${stat.size} bytes, more than the ${this.limits.maxReadBytes} bytes one read may return`, 'read a smaller file');
      }
      const data = Buffer.alloc(stat.size);
      let got = 0;
      while (got < data.length) {
        const n = readSync(fd, data, got, data.length - got, got);
        if (n === 0) break;
        got += n;
      }
      return { relative: resolved.relative, data: data.subarray(0, got) };
    } finally {
      closeSync(fd);
    }
  }

  list(path: unknown): { relative: string; entries: FileEntry[] } {
    const resolved = this.resolveExisting(path);
    const entries: FileEntry[] = [];
    for (const name of readdirSync(resolved.real)) {
      const stat = lstatOrNull(join(resolved.real, name));
      if (!stat) continue;
      const kind = stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'symlink' : 'other';
      entries.push({ name, kind, size: stat.isFile() ? stat.size : 0 });
    }
    return { relative: resolved.relative, entries };
  }

  /**
   * Where a write to `path` would land: its real parent (with `create`, missing folders are made, each one checked)
   * and its workspace-relative path. Refuses a target that is a symbolic link (or a folder); for a create-only write
   * (`createOnly`) one inside the workspace is simply something that `exists`, a link leading out stays `outside_root`.
   */
  resolveForWrite(path: unknown, create: boolean, createOnly = false): { relative: string; parent: string; name: string } {
    const parts = this.segments(path);
    if (parts.length === 0) throw new HostCallError('bad_request', 'a write needs a file path, not the workspace root', 'send {"path": "dir/file.txt", "data_b64": ...}');
    const name = parts[parts.length - 1];
    let parent = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      const part = parts[i];
      const next = join(parent, part);
      const stat = lstatOrNull(next);
      if (!stat) {
        // Not created yet: the path it will have (for the consent check, before anything is made on disk).
        if (!create) return { relative: [this.relativeOf(parent), ...parts.slice(i)].filter(Boolean).join('/'), parent: '', name };
        mkdirSync(next);
        parent = this.realInside(path as string, next);
        continue;
      }
      const real = this.realInside(path as string, next);
      if (!lstatSync(real).isDirectory()) throw new HostCallError('bad_request', `"${part}" in "${path as string}" is not a folder`, 'write under a folder');
      parent = real;
    }
    const target = lstatOrNull(join(parent, name));
    if (target?.isSymbolicLink()) {
      let real: string | null = null;
      try {
        real = realpathSync(join(parent, name));
      } catch {
        // A dangling link: it leads nowhere yet, but something is at the path.
      }
      if (real !== null && !this.isInside(real)) throw outside(path as string, `it is a symbolic link to ${real}`);
      if (createOnly) throw exists(path as string, 'a symbolic link');
      throw new HostCallError('bad_request', `"${path as string}" is a symbolic link`, real ? `write to the file it points at, "${this.relativeOf(real)}"` : 'write to another path');
    }
    if (target?.isDirectory()) {
      if (createOnly) throw exists(path as string, 'a folder');
      throw new HostCallError('bad_request', `"${path as string}" is a folder`, 'write to a file path');
    }
    return { relative: this.relativeOf(join(parent, name)), parent, name };
  }

  write(path: unknown, data: Buffer): { relative: string; written: number } {
    if (data.length > this.limits.maxWriteBytes) {
      throw new HostCallError('too_large', `${data.length} bytes is more than the ${this.limits.maxWriteBytes} bytes one write may carry`, 'write in smaller files');
    }
    const { relative: rel, parent, name } = this.resolveForWrite(path, true);
    const temp = join(parent, `.${name}.omni-${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    try {
      this.checkOpened(fd, path as string);
      let put = 0;
      while (put < data.length) put += writeSync(fd, data, put, data.length - put);
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, join(parent, name));
    } catch (error) {
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
      rmSync(temp, { force: true });
      throw error;
    }
    return { relative: rel, written: data.length };
  }

  /**
   * Creates `path` only if nothing is there (O_EXCL semantics on the real path), or throws `exists` and leaves what is
   * there untouched. The data goes to a temporary file first, which is then hard-linked to the target: link() fails
   * if anything (a file, a link, one made a moment ago by someone else) is at the target, and the file appears whole
   * or not at all. Where hard links are not supported, the target itself is opened with O_CREAT | O_EXCL.
   */
  create(path: unknown, data: Buffer): { relative: string; written: number } {
    if (data.length > this.limits.maxWriteBytes) {
      throw new HostCallError('too_large', `${data.length} bytes is more than the ${this.limits.maxWriteBytes} bytes one write may carry`, 'write in smaller files');
    }
    const { relative: rel, parent, name } = this.resolveForWrite(path, true, true);
    const target = join(parent, name);
    const temp = join(parent, `.${name}.omni-${randomBytes(6).toString('hex')}.tmp`);
    try {
      this.writeNew(temp, data, path as string);
      try {
        linkSync(temp, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw exists(path as string, 'a file');
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
        this.writeNew(target, data, path as string);
      }
    } finally {
      rmSync(temp, { force: true });
    }
    return { relative: rel, written: data.length };
  }

  /** Writes `data` to a file that must not exist yet (O_CREAT | O_EXCL, not through a link), synced to disk. */
  private writeNew(file: string, data: Buffer, path: string): void {
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(path, 'a file');
      throw error;
    }
    try {
      this.checkOpened(fd, path);
      let put = 0;
      while (put < data.length) put += writeSync(fd, data, put, data.length - put);
      fsyncSync(fd);
    } finally {
      try {
        closeSync(fd);
      } catch {
        // checkOpened closed it already.
      }
    }
  }
}
