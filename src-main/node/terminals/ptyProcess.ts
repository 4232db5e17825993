import { readSync } from 'node:fs';
import type * as NodePty from 'node-pty';
import { Emitter, toDisposable, type Disposable } from '../../../src-preload/rpc';
import { loadNative } from '../base/native';
import { isAlive } from '../base/processTable';
import { completeLength, Utf8Chunk } from '../base/utf8Chunk';
import { masterFd, onceReadEnd, takeReadsAsBytes } from './nodePtyInternals';
import { killTree } from './processTree';

const FLUSH_DELAY_MS = 5;
const FLUSH_BYTES = 256 * 1024;
/** At most 64 MB read synchronously at an early end-of-file (see drainAfterEarlyEndOfFile). */
const MAX_DRAIN_READS = 1024;

export interface PtyOptions {
  shell: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** How long the tree gets to exit after SIGHUP before SIGKILL when the terminal is closed (default HANGUP_GRACE_MS). */
  hangupGraceMs?: number;
}

export interface PtyExit {
  exitCode: number | null;
  signal: number | null;
}

/**
 * One shell in a pseudo-terminal, with the two things node-pty leaves to its user:
 * - flow control shared by several readers: the pty is paused while any reader is behind;
 * - no lost tail: node-pty gives up on reading 200 ms after the child exits (microsoft/node-pty #72), so while
 *   paused we watch the child and, once it is gone, resume reading so its last output is drained and kept.
 *   The read socket can also report end-of-file early when the shell exits under load: see drainAfterEarlyEndOfFile.
 * Output is gathered for up to 5 ms or 256 KB and delivered as one chunk (as VS Code does): each pty read is
 * ~4 KB (the kernel's pty buffer caps it), and with one frame per read the socket writes, not xterm, become the
 * bottleneck (docs/performance.md#terminal-throughput).
 *
 * Output is read as bytes and delivered as UTF-8 of whole characters (Utf8Chunk): the renderer's frames take those
 * bytes as they are, and only readers that need text decode it (the scrollback when replayed; the event log's writer
 * thread when output is not ASCII or may hold a secret). A character split between two reads waits for the rest of it.
 */
export class PtyProcess implements Disposable {
  private readonly pty: NodePty.IPty;
  private readonly data = new Emitter<Utf8Chunk>();
  private readonly exited = new Emitter<PtyExit>();
  readonly onDidData = this.data.event;
  readonly onDidExit = this.exited.event;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly pausedBy = new Set<object>();
  private exitWatch: NodeJS.Timeout | undefined;
  private exitInfo: PtyExit | undefined;
  private forcedResume = false;
  private readonly hangupGraceMs: number | undefined;

  constructor(options: PtyOptions) {
    this.hangupGraceMs = options.hangupGraceMs;
    const pty = loadNative<typeof NodePty>('node-pty');
    this.pty = pty.spawn(options.shell, options.args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.readBytes();
    this.drainAfterEarlyEndOfFile();
    this.pty.onData((chunk: string | Uint8Array) => this.receive(chunk));
    this.pty.onExit(({ exitCode, signal }) => {
      this.flush(true);
      this.stopExitWatch();
      this.exitInfo = { exitCode: signal ? null : exitCode, signal: signal || null };
      this.exited.fire(this.exitInfo);
    });
  }

  /**
   * node-pty is told the terminal is UTF-8 (its `encoding`, which also sets the line discipline's IUTF8 flag, so
   * erasing a character in cooked mode erases all its bytes), and would then decode every read into a string. We
   * take the reads as bytes instead by undoing its read stream's setEncoding before anything is read: decoding every
   * read, joining the strings and encoding them again for the renderer (and the writer thread encoding them once
   * more) is CPU the host spends on every chunk of a flood (docs/performance.md#terminal-throughput).
   * Should a node-pty or Node version keep the decoder, `receive` still takes the strings.
   */
  private readBytes(): void {
    takeReadsAsBytes(this.pty);
  }

  private receive(chunk: string | Uint8Array): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) {
      this.flush();
    } else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    }
  }

  /**
   * When the shell exits while output is still queued in the kernel, the pty's read socket sometimes reports
   * end-of-file before that output has been read (seen under CPU load: the last 1-10 KB of a flood went missing),
   * and node-pty then closes the descriptor. The kernel still holds the data (a plain read() drains it, then EIO),
   * so at that end-of-file we read the descriptor ourselves until it is empty, before it is closed.
   */
  private drainAfterEarlyEndOfFile(): void {
    const fd = masterFd(this.pty);
    if (fd === null) return;
    onceReadEnd(this.pty, () => {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      // Bounded: a background job that keeps writing must not keep the host here forever.
      for (let reads = 0; reads < MAX_DRAIN_READS; reads++) {
        let count: number;
        try {
          count = readSync(fd, buffer, 0, buffer.length, null);
        } catch {
          break; // EIO: drained; EAGAIN: nothing more for now.
        }
        if (count <= 0) break;
        this.receive(Buffer.from(buffer.subarray(0, count))); // a copy: the buffer is read into again
      }
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  get exit(): PtyExit | undefined {
    return this.exitInfo;
  }

  /**
   * Delivers what is pending as one chunk, less an incomplete character at its end, which stays pending for the next
   * read; at the end of the output (`final`) that too goes, as the U+FFFD a decoder makes of it.
   */
  private flush(final = false): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    const all = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const complete = final ? all.length : completeLength(all);
    this.pending = complete < all.length ? [all.subarray(complete)] : [];
    this.pendingBytes = all.length - complete;
    if (complete > 0) this.data.fire(Utf8Chunk.fromBytes(complete < all.length ? all.subarray(0, complete) : all));
  }

  write(data: string): void {
    if (!this.exitInfo) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exitInfo) this.pty.resize(cols, rows);
  }

  /** A reader fell behind: stop reading from the pty until every reader has caught up. */
  pause(reader: object): void {
    if (this.exitInfo || this.forcedResume) return;
    if (this.pausedBy.size === 0) {
      this.pty.pause();
      this.startExitWatch();
    }
    this.pausedBy.add(reader);
  }

  resume(reader: object): void {
    if (!this.pausedBy.delete(reader) || this.pausedBy.size > 0) return;
    this.stopExitWatch();
    if (!this.exitInfo) this.pty.resume();
  }

  /** Readers that go away never hold the pty paused. */
  readerGone(reader: object): Disposable {
    return toDisposable(() => this.resume(reader));
  }

  private startExitWatch(): void {
    this.exitWatch ??= setInterval(() => {
      if (isAlive(this.pty.pid)) return;
      // The child is gone: its remaining output is bounded by the kernel's pty buffer, so read it all now.
      this.forcedResume = true;
      this.stopExitWatch();
      this.pausedBy.clear();
      this.pty.resume();
    }, 40);
  }

  private stopExitWatch(): void {
    if (this.exitWatch) clearInterval(this.exitWatch);
    this.exitWatch = undefined;
  }

  /** Ends the shell and every process it started (its session, jobs and descendants). */
  async kill(): Promise<void> {
    this.stopExitWatch();
    if (this.pausedBy.size > 0) this.pty.resume();
    if (!this.exitInfo) await killTree(this.pty.pid, this.hangupGraceMs);
  }

  dispose(): void {
    void this.kill();
    this.data.dispose();
    this.exited.dispose();
  }
}
