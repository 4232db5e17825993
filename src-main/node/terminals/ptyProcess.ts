import { readSync } from 'node:fs';
import type * as NodePty from 'node-pty';
import { StringDecoder } from 'node:string_decoder';
import { Emitter, toDisposable, type Disposable } from '../../../src-preload/rpc';
import { loadNative } from '../base/native';
import { isAlive } from '../base/processTable';
import { killTree } from './processTree';

const FLUSH_DELAY_MS = 5;
const FLUSH_CHARS = 256 * 1024;
/** At most 64 MB read synchronously at an early end-of-file (see drainAfterEarlyEndOfFile). */
const MAX_DRAIN_READS = 1024;

export interface PtyOptions {
  shell: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
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
 * Output is gathered for up to 5 ms or 256k characters and delivered as one chunk (as VS Code does): each pty read
 * is ~4 KB, and one frame per read made the socket writes, not xterm, the bottleneck (`npm run bench`).
 */
export class PtyProcess implements Disposable {
  private readonly pty: NodePty.IPty;
  private readonly data = new Emitter<string>();
  private readonly exited = new Emitter<PtyExit>();
  readonly onDidData = this.data.event;
  readonly onDidExit = this.exited.event;
  private pending: string[] = [];
  private pendingChars = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly pausedBy = new Set<object>();
  private exitWatch: NodeJS.Timeout | undefined;
  private exitInfo: PtyExit | undefined;
  private forcedResume = false;

  constructor(options: PtyOptions) {
    const pty = loadNative<typeof NodePty>('node-pty');
    this.pty = pty.spawn(options.shell, options.args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.drainAfterEarlyEndOfFile();
    this.pty.onData((chunk) => this.receive(chunk));
    this.pty.onExit(({ exitCode, signal }) => {
      this.flush();
      this.stopExitWatch();
      this.exitInfo = { exitCode: signal ? null : exitCode, signal: signal || null };
      this.exited.fire(this.exitInfo);
    });
  }

  private receive(chunk: string): void {
    this.pending.push(chunk);
    this.pendingChars += chunk.length;
    if (this.pendingChars >= FLUSH_CHARS) {
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
    const internals = this.pty as unknown as { _socket?: { once(event: 'end', listener: () => void): void }; _fd?: number };
    const socket = internals._socket;
    const fd = internals._fd;
    if (!socket || typeof fd !== 'number') return;
    socket.once('end', () => {
      const decoder = new StringDecoder('utf8');
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
        this.receive(decoder.write(buffer.subarray(0, count)));
      }
      const rest = decoder.end();
      if (rest) this.receive(rest);
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  get exit(): PtyExit | undefined {
    return this.exitInfo;
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.data.fire(chunk);
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
    if (!this.exitInfo) await killTree(this.pty.pid);
  }

  dispose(): void {
    void this.kill();
    this.data.dispose();
    this.exited.dispose();
  }
}
