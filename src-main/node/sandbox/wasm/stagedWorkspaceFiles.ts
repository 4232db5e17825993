import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HostCallError } from './hostCallError';
import { WorkspaceFiles, type FileEntry, type ResolvedPath } from './workspaceFiles';

/** How a staged file reaches the workspace at commit: replacing what is there, or only where nothing is yet. */
type StagedKind = 'write' | 'create';

export interface StagedCommit {
  /** Workspace-relative paths written, in the order the agent wrote them. */
  committed: string[];
  /** Create-only files that could not land because something appeared at their path after the agent checked. */
  conflicts: { path: string; message: string }[];
}

const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A WASM agent's view of the workspace whose writes are held back: files_write / files_create land in a private
 * staging folder (outside the workspace, 0700) instead of the workspace, the agent reads and lists its own staged
 * files as if they were there, and nothing in the workspace changes (not even a new folder) until `commit()`.
 * `discard()` (a timeout, a kill, a failure) drops them all. Path checks are the workspace's own: every path is
 * resolved against the real workspace exactly as an unstaged write would be, so a link cannot lead out and `.meta`
 * stays refused by the caller (AgentHostCalls) before anything is staged.
 *
 * The commit writes file by file, each atomically (temporary file, rename), with the same checks again; it is not
 * one atomic step for the whole set (the same trade-off as the native sandbox's overlay commit).
 */
export class StagedWorkspaceFiles extends WorkspaceFiles {
  private readonly stagingDir: string;
  private readonly staged = new Map<string, StagedKind>();
  private readonly maxBytes: { read: number; write: number };
  private finished = false;

  constructor(root: string, options: { stagingParent?: string; maxReadBytes?: number; maxWriteBytes?: number } = {}) {
    const limits = { maxReadBytes: options.maxReadBytes ?? DEFAULT_MAX_BYTES, maxWriteBytes: options.maxWriteBytes ?? DEFAULT_MAX_BYTES };
    super(root, limits);
    this.maxBytes = { read: limits.maxReadBytes, write: limits.maxWriteBytes };
    this.stagingDir = mkdtempSync(join(options.stagingParent ?? tmpdir(), 'omni-wasm-stage-'));
  }

  /** Workspace-relative paths staged so far, in write order. */
  get stagedPaths(): string[] {
    return [...this.staged.keys()];
  }

  /** Where a write would land, checked against the real workspace, without creating any folder in it. */
  override resolveForWrite(path: unknown, _create: boolean, createOnly = false): { relative: string; parent: string; name: string } {
    const where = super.resolveForWrite(path, false, createOnly);
    if (createOnly && this.staged.has(where.relative)) {
      throw new HostCallError('exists', `"${path as string}" already exists (a file written in this turn); nothing was written`, 'leave it as it is, or write elsewhere (files_write replaces a file)');
    }
    return where;
  }

  override write(path: unknown, data: Buffer): { relative: string; written: number } {
    return this.stage(path, data, 'write');
  }

  override create(path: unknown, data: Buffer): { relative: string; written: number } {
    return this.stage(path, data, 'create');
  }

  override resolveExisting(path: unknown): ResolvedPath {
    const key = this.stagedKey(path);
    if (key !== null) return { relative: key, real: join(this.stagingDir, key) };
    const lexical = this.lexical(path);
    try {
      return super.resolveExisting(path);
    } catch (error) {
      // A folder that exists only because the agent wrote files into it this turn.
      if (lexical !== '' && this.stagedUnder(lexical).length > 0) return { relative: lexical, real: join(this.stagingDir, lexical) };
      throw error;
    }
  }

  override read(path: unknown): { relative: string; data: Buffer } {
    const key = this.stagedKey(path);
    if (key === null) return super.read(path);
    const file = join(this.stagingDir, key);
    const size = statSync(file).size;
    if (size > this.maxBytes.read) {
      throw new HostCallError('too_large', `"${path as string}" is ${size} bytes, more than the ${this.maxBytes.read} bytes one read may return`, 'read a smaller file');
    }
    return { relative: key, data: readFileSync(file) };
  }

  /** The folder as the workspace has it, with this turn's staged files laid over it. */
  override list(path: unknown): { relative: string; entries: FileEntry[] } {
    const resolved = this.resolveExisting(path);
    const inWorkspace = resolved.real.startsWith(this.stagingDir) ? [] : super.list(path).entries;
    const byName = new Map(inWorkspace.map((entry) => [entry.name, entry]));
    const prefix = resolved.relative === '' ? '' : `${resolved.relative}/`;
    for (const key of this.stagedUnder(resolved.relative)) {
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) byName.set(rest, { name: rest, kind: 'file', size: statSync(join(this.stagingDir, key)).size });
      else if (!byName.has(rest.slice(0, slash))) byName.set(rest.slice(0, slash), { name: rest.slice(0, slash), kind: 'dir', size: 0 });
    }
    return { relative: resolved.relative, entries: [...byName.values()] };
  }

  /** Moves every staged file into the workspace (each one atomically), then removes the staging folder. */
  commit(): StagedCommit {
    this.assertOpen();
    const target = new WorkspaceFiles(this.root, { maxReadBytes: this.maxBytes.read, maxWriteBytes: this.maxBytes.write });
    const result: StagedCommit = { committed: [], conflicts: [] };
    try {
      for (const [key, kind] of this.staged) {
        const data = readFileSync(join(this.stagingDir, key));
        try {
          if (kind === 'create') target.create(key, data);
          else target.write(key, data);
          result.committed.push(key);
        } catch (error) {
          if (!(error instanceof HostCallError)) throw error;
          result.conflicts.push({ path: key, message: error.message });
        }
      }
    } finally {
      this.discard();
    }
    return result;
  }

  /** Drops every staged write; the workspace is as it was before the turn. Safe to call more than once. */
  discard(): void {
    this.finished = true;
    this.staged.clear();
    rmSync(this.stagingDir, { recursive: true, force: true });
  }

  private stage(path: unknown, data: Buffer, kind: StagedKind): { relative: string; written: number } {
    this.assertOpen();
    if (data.length > this.maxBytes.write) {
      throw new HostCallError('too_large', `${data.length} bytes is more than the ${this.maxBytes.write} bytes one write may carry`, 'write in smaller files');
    }
    const { relative } = this.resolveForWrite(path, false, kind === 'create');
    const file = join(this.stagingDir, relative);
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, data, { mode: 0o600 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
        throw new HostCallError('bad_request', `"${path as string}" clashes with a file or folder written earlier in this turn`, 'write to another path');
      }
      throw error;
    }
    // Re-inserted, so the commit order is the order of the last writes; a file this turn created stays create-only.
    const before = this.staged.get(relative);
    this.staged.delete(relative);
    this.staged.set(relative, before === 'create' ? 'create' : kind);
    return { relative, written: data.length };
  }

  /** The staged file a path names (through links of the real workspace, like a write would resolve it), or null. */
  private stagedKey(path: unknown): string | null {
    if (this.staged.size === 0) return null;
    const lexical = this.lexical(path);
    if (this.staged.has(lexical)) return lexical;
    try {
      const { relative } = super.resolveForWrite(path, false);
      return this.staged.has(relative) ? relative : null;
    } catch {
      return null;
    }
  }

  private stagedUnder(folder: string): string[] {
    const prefix = folder === '' ? '' : `${folder}/`;
    return [...this.staged.keys()].filter((key) => key.startsWith(prefix));
  }

  private assertOpen(): void {
    if (this.finished) throw new HostCallError('bad_request', 'the turn is over: its writes were already committed or dropped', 'start a new turn');
  }
}
