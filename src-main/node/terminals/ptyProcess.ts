import type * as NodePty from 'node-pty';
import { Emitter, toDisposable, type Disposable } from '../../../src-preload/rpc';
import { loadNative } from '../base/native';
import { isAlive, killTree } from './processTree';

const FLUSH_DELAY_MS = 5;
const FLUSH_CHARS = 256 * 1024;

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
 *   Known gap: with both cores saturated by other work, the pty has been seen to report end-of-file 1-10 KB early
 *   when the shell itself exits right after a flood (the read socket ends by EOF, not by node-pty's timer).
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
    this.pty.onData((chunk) => {
      this.pending.push(chunk);
      this.pendingChars += chunk.length;
      if (this.pendingChars >= FLUSH_CHARS) {
        this.flush();
      } else if (!this.flushTimer) {
        this.flushTimer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
      }
    });
    this.pty.onExit(({ exitCode, signal }) => {
      this.flush();
      this.stopExitWatch();
      this.exitInfo = { exitCode: signal ? null : exitCode, signal: signal || null };
      this.exited.fire(this.exitInfo);
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
