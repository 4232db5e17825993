import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { RunStatus, Watcher } from '../../../src-preload/contract/exec';
import { PtyProcess } from '../terminals/ptyProcess';
import type { PreparedLaunch } from './launcher';
import { OutputWatcher, type WatchedStream, type WatchMatch } from './outputWatcher';
import { killRunProcesses } from './runProcesses';
import type { RunItemWriter } from './runItemWriter';

/** After SIGTERM on a timeout, how long the run's processes get before SIGKILL. */
export const TIMEOUT_GRACE_MS = 2000;
/** After SIGTERM on a kill request. */
export const KILL_GRACE_MS = 500;
/** After the main process exits, how long its pipes may stay open (held by a leftover) before leftovers are ended. */
const PIPE_CLOSE_WAIT_MS = 200;
const PTY_COLS = 120;
const PTY_ROWS = 40;

export interface AttemptSpec {
  runId: string;
  pty: boolean;
  /** Pipe runs only: keep stdin open for send_keys (a one-shot gets none, so a program reading it sees EOF). */
  stdin: boolean;
  timeoutSecs: number | null;
  maxOutputBytes: number | null;
  watch: readonly Watcher[];
}

/** How an attempt ended. `interrupted`: the host stopped it; the run stays running and is recovered at next start. */
export interface AttemptEnd {
  status: Exclude<RunStatus, 'queued' | 'running'> | 'interrupted';
  exitCode: number | null;
  signal: string | null;
  reason: string | null;
}

type StopCause = { kind: 'kill'; actor: string } | { kind: 'timeout' } | { kind: 'host-stop' };

const signalNames = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));
const signalName = (signal: number | null): string | null => (signal ? (signalNames.get(signal) ?? String(signal)) : null);

/**
 * One execution of a run's command: started from the launcher's argv/env/cwd in a session and process group of its
 * own (pipes: detached spawn; PTY: node-pty), its output turned into items (whole UTF-8 characters: a decoder per
 * stream), watched, capped at max_output_bytes (the rest is read and dropped, so the child never blocks), and
 * ended by kill, timeout or host stop with every process of the run. Resolves `ended` once the command has exited
 * and all its output has been queued as items.
 */
export class RunAttempt {
  readonly ended: Promise<AttemptEnd>;
  readonly pid: number | null;
  private child: ChildProcess | undefined;
  private pty: PtyProcess | undefined;
  private readonly watcher: OutputWatcher;
  private outputBytes = 0;
  private truncated = false;
  private stopCause: StopCause | undefined;
  private stopping: Promise<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private exitSeen = false;

  constructor(
    private readonly spec: AttemptSpec,
    launch: PreparedLaunch,
    private readonly items: RunItemWriter,
    private readonly onMatch: (match: WatchMatch) => void,
  ) {
    this.watcher = new OutputWatcher(spec.watch);
    let resolveEnd!: (end: AttemptEnd) => void;
    this.ended = new Promise<AttemptEnd>((resolve) => (resolveEnd = resolve));
    // The exit item is the worker's to write: it knows the final status (a failed commit of staged writes, say).
    const finish = (exitCode: number | null, signal: string | null, startError?: Error) => {
      if (this.timer) clearTimeout(this.timer);
      // All output is in: what the streams held back for the rest of a line goes out before the run's end.
      this.items.endOutput(spec.runId);
      resolveEnd(this.outcome(exitCode, signal, startError));
    };
    const [program, ...args] = launch.argv;
    if (spec.pty) {
      let pty: PtyProcess;
      try {
        pty = new PtyProcess({ shell: program, args, cwd: launch.cwd, env: { ...launch.env }, cols: PTY_COLS, rows: PTY_ROWS });
      } catch (error) {
        this.pid = null;
        finish(null, null, error as Error);
        return;
      }
      this.pty = pty;
      this.pid = pty.pid;
      pty.onDidData((chunk) => this.output('output', chunk.text, chunk.bytes.length));
      pty.onDidExit(({ exitCode, signal }) => {
        this.exitSeen = true;
        // The pty's session is the run's: whatever it left behind goes with it.
        void this.endLeftovers().then(() => finish(exitCode, signalName(signal)));
        pty.dispose();
      });
    } else {
      const child = spawn(program, args, {
        cwd: launch.cwd,
        env: { ...launch.env },
        detached: true,
        stdio: [spec.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      this.pid = child.pid ?? null;
      const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
      child.stdout!.on('data', (chunk: Buffer) => this.pipeOutput('stdout', chunk, decoders.stdout));
      child.stderr!.on('data', (chunk: Buffer) => this.pipeOutput('stderr', chunk, decoders.stderr));
      child.stdin?.on('error', () => undefined); // a child that stops reading makes writes fail: not the host's problem
      let closeWait: NodeJS.Timeout | undefined;
      child.once('exit', () => {
        this.exitSeen = true;
        // Leftovers of the group are ended at once; a process that escaped it but holds the pipes is found by the
        // sweep if the pipes do not close by themselves.
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is empty
        }
        closeWait = setTimeout(() => {
          void this.endLeftovers().then(() => {
            // Still open: held by a process that is neither marked nor in the run's group (it cleared its
            // environment and left): stop reading rather than wait for it forever.
            closeWait = setTimeout(() => {
              child.stdout?.destroy();
              child.stderr?.destroy();
            }, PIPE_CLOSE_WAIT_MS);
          });
        }, PIPE_CLOSE_WAIT_MS);
      });
      child.once('close', (code, signal) => {
        if (closeWait) clearTimeout(closeWait);
        for (const stream of ['stdout', 'stderr'] as const) {
          // An incomplete character at the very end; after truncation it is only the half the cap cut off.
          const rest = decoders[stream].end();
          if (rest && !this.truncated) this.output(stream, rest, 0);
        }
        finish(code, signal);
      });
      child.once('error', (error) => {
        // Only a failure to start ends the attempt here (a failed kill or write is reported elsewhere or harmless).
        if (this.pid === null) finish(null, null, error);
      });
      if (this.pid === null) return;
    }
    if (spec.timeoutSecs !== null) {
      this.timer = setTimeout(() => void this.stop({ kind: 'timeout' }), spec.timeoutSecs * 1000);
      this.timer.unref();
    }
  }

  private outcome(exitCode: number | null, signal: string | null, startError?: Error): AttemptEnd {
    if (startError) return { status: 'failed', exitCode: null, signal: null, reason: `could not start the command: ${startError.message}` };
    const cause = this.stopCause;
    if (cause?.kind === 'host-stop') return { status: 'interrupted', exitCode, signal, reason: 'the host stopped' };
    if (cause?.kind === 'timeout') return { status: 'timed_out', exitCode, signal, reason: `timed out after ${this.spec.timeoutSecs} s` };
    if (cause?.kind === 'kill') return { status: 'killed', exitCode, signal, reason: `killed by ${cause.actor}` };
    return { status: 'exited', exitCode, signal, reason: null };
  }

  private pipeOutput(stream: 'stdout' | 'stderr', chunk: Buffer, decoder: StringDecoder): void {
    const kept = this.keep(chunk.length);
    if (kept > 0) {
      const text = decoder.write(kept < chunk.length ? chunk.subarray(0, kept) : chunk);
      if (text) this.output(stream, text, 0);
    }
    // Also when the cap was reached exactly by earlier output: the first byte past it is what truncates.
    if (kept < chunk.length) this.truncate();
  }

  /** How many of `bytes` new bytes fit under the cap (all of them without one); counts them. */
  private keep(bytes: number): number {
    if (this.truncated) return 0;
    const cap = this.spec.maxOutputBytes;
    const kept = cap === null ? bytes : Math.max(0, Math.min(bytes, cap - this.outputBytes));
    this.outputBytes += kept;
    return kept;
  }

  private truncate(): void {
    if (this.truncated) return;
    this.truncated = true;
    this.items.markTruncated(this.spec.runId);
    this.items.append(this.spec.runId, 'event', 'truncated', {
      max_output_bytes: this.spec.maxOutputBytes,
      message: `output reached max_output_bytes (${this.spec.maxOutputBytes}); the rest is read and dropped while the command keeps running`,
    });
  }

  /** Text decoded from a stream: PTY text is cut to the cap here; pipe text was already cut in bytes. */
  private output(stream: WatchedStream, text: string, ptyBytes: number): void {
    let kept = text;
    let bytes = Buffer.byteLength(text);
    if (ptyBytes > 0) {
      const fits = this.keep(ptyBytes);
      if (fits === 0) return this.truncate();
      if (fits < ptyBytes) {
        // Cut at a character boundary: the decoder keeps a split character to itself.
        kept = new StringDecoder('utf8').write(Buffer.from(text).subarray(0, fits));
        bytes = Buffer.byteLength(kept);
      }
    }
    if (kept) this.items.appendOutput(this.spec.runId, stream, kept, bytes);
    if (kept && !this.watcher.empty) {
      // Watchers see the output scrubbed: a watcher must not tell an agent, match or no match, what a secret holds.
      for (const match of this.watcher.feed(stream, this.items.scrubber.scrubText(kept))) {
        this.items.append(this.spec.runId, 'event', match.event, { match: match.match, watcher: match.watcher, stream: match.stream, offset: match.offset });
        this.onMatch(match);
      }
    }
    if (ptyBytes > 0 && kept.length < text.length) this.truncate();
  }

  /** Writes to the PTY (or the pipe's stdin) and records it as an `input` item; returns the item's seq. */
  sendKeys(text: string, keys: readonly string[]): number {
    if (this.exitSeen) throw new Error('the command has exited');
    if (this.pty) this.pty.write(text);
    else if (this.child?.stdin && !this.child.stdin.writableEnded) {
      // C-d alone on a pipe is the end of input (what it means to a terminal's line discipline).
      if (text === '\x04') this.child.stdin.end();
      else this.child.stdin.write(text);
    } else throw new Error('the command has no input open (a one-shot run, or its input was ended with C-d)');
    return this.items.append(this.spec.runId, 'input', text, { keys: [...keys] });
  }

  kill(actor: string): Promise<unknown> {
    return this.stop({ kind: 'kill', actor });
  }

  /** The host is stopping: end the processes; the run is left running, to be recovered. */
  interrupt(): Promise<unknown> {
    return this.stop({ kind: 'host-stop' });
  }

  private stop(cause: StopCause): Promise<unknown> {
    if (this.stopping) return this.stopping;
    this.stopCause = cause;
    const detail =
      cause.kind === 'kill'
        ? { by: cause.actor }
        : cause.kind === 'timeout'
          ? { timeout_secs: this.spec.timeoutSecs, message: `no exit after ${this.spec.timeoutSecs} s: SIGTERM to every process of the run, SIGKILL ${TIMEOUT_GRACE_MS} ms later` }
          : { message: 'the host stopped: the run is recovered when it starts again' };
    this.items.append(this.spec.runId, 'event', cause.kind === 'kill' ? 'killed' : cause.kind === 'timeout' ? 'timeout' : 'host_stopped', detail);
    if (this.pid === null) return (this.stopping = Promise.resolve());
    const graceMs = cause.kind === 'timeout' ? TIMEOUT_GRACE_MS : KILL_GRACE_MS;
    this.stopping = killRunProcesses(this.spec.runId, this.pid, { first: 'SIGTERM', graceMs });
    return this.stopping;
  }

  /** After the main process exited: anything of the run still alive (an escaped daemon holding a pipe) is ended. */
  private endLeftovers(): Promise<unknown> {
    return killRunProcesses(this.spec.runId, this.pid);
  }
}
