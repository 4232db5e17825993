import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { Emitter } from '../../../../src-preload/rpc';
import { ChildFrameError } from './childFrameError';
import { parseChildFrame } from './childFrames';
import { CALL_CHANNEL_FD, encodeTextFrame, FrameReader, type FromChild, type ToChild } from './childProtocol';

/** The child's script: the bundle beside this one in a build, the TypeScript source under tsx (tests, development). */
function childScript(): string {
  for (const name of ['wasmAgentChild.cjs', 'childEntry.js', 'childEntry.ts']) {
    const file = join(__dirname, name);
    if (existsSync(file)) return file;
  }
  throw new Error(`the WASM agent child script is missing beside ${__dirname} (run \`npm run build\`)`);
}

/** Node's permission model (--experimental-permission, Node 20+; not in Electron's Node). */
function permissionModel(): boolean {
  return !process.versions.electron && process.allowedNodeEnvironmentFlags.has('--experimental-permission');
}

export interface AgentChildOptions {
  /** V8 heap cap of the child, in MiB: the guest's linear memory lives outside it, so it stays small. */
  heapMb?: number;
  /** The child's script, when not the one found beside this module (the bench measures the built bundle). */
  script?: string;
}

/** Frames bigger than this from a child mean it is broken or hostile: it is killed. */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/**
 * One child process that will run one WASM agent (docs/agent-runtime.md): started idle, with an empty environment
 * and a bounded V8 heap, so that a hard kill ends everything the agent was doing at once.
 */
export class AgentChild {
  readonly process: ChildProcess;
  readonly pid: number;
  readonly startedAt = performance.now();
  private readonly channel: Socket;
  private readonly frames = new Emitter<FromChild>();
  private readonly exited = new Emitter<{ code: number | null; signal: NodeJS.Signals | null }>();
  private readonly brokenFrames = new Emitter<ChildFrameError>();
  readonly onFrame = this.frames.event;
  /** The child sent a frame that is not a FromChild (or too large): it is being killed, and this says why. */
  readonly onDidSendBadFrame = this.brokenFrames.event;
  readonly onExit = this.exited.event;
  readonly ready: Promise<void>;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** The last lines the child's Node itself printed (not the guest's output): why it crashed, when it did. */
  diagnostics = '';
  /** The first bad frame the child sent; nothing it sends after that is read. */
  badFrame: ChildFrameError | null = null;

  constructor(options: AgentChildOptions = {}) {
    const script = options.script ?? childScript();
    const execArgv = [`--max-old-space-size=${options.heapMb ?? 64}`, '--no-warnings'];
    // Under tsx the TypeScript source loads through tsx's CommonJS hook; a build runs its bundle directly, under
    // Node's permission model where there is one: the process may read its own script and nothing else, so even a
    // guest that escaped V8's WASM sandbox would find no files and no child processes (a worker thread is allowed:
    // the child's orphan watcher is one).
    if (script.endsWith('.ts')) execArgv.push('--require', 'tsx/cjs');
    else if (permissionModel()) execArgv.push('--experimental-permission', `--allow-fs-read=${script}`, '--allow-worker');
    this.process = fork(script, [], {
      execArgv,
      // Nothing of the host's environment (tokens, paths) reaches the agent's process.
      env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
      stdio: ['ignore', 'pipe', 'pipe', 'ipc', 'pipe'],
      serialization: 'advanced',
    });
    this.pid = this.process.pid ?? -1;
    this.channel = this.process.stdio[CALL_CHANNEL_FD] as Socket;
    const keep = (chunk: Buffer) => (this.diagnostics = (this.diagnostics + chunk.toString('utf8')).slice(-4000));
    this.process.stdout?.on('data', keep);
    this.process.stderr?.on('data', keep);
    const reader = new FrameReader(MAX_FRAME_BYTES);
    this.channel.on('data', (chunk: Buffer) => {
      if (this.badFrame) return;
      try {
        // Parsed one at a time, so that the frames before a bad one still count (a log line, a step's end).
        for (const frame of reader.push(chunk)) this.frames.fire(parseChildFrame(frame));
      } catch (error) {
        // Only a frame is refused here, never the host: whatever the child sends, the host carries on without it.
        if (!(error instanceof ChildFrameError)) throw error;
        this.refuse(error);
      }
    });
    this.channel.on('error', () => this.kill());
    this.ready = new Promise((resolve, reject) => {
      const sub = this.onFrame((frame) => {
        if (frame.type === 'ready') {
          sub.dispose();
          resolve();
        }
      });
      this.onExit(({ code, signal }) => reject(new Error(`the agent process exited before it was ready (code ${code}, signal ${signal}): ${this.diagnostics.trim()}`)));
    });
    this.ready.catch(() => undefined);
    this.process.on('exit', (code, signal) => {
      this.exit = { code, signal };
      this.exited.fire(this.exit);
    });
    this.process.on('error', (error) => {
      this.diagnostics += `\n${error.message}`;
    });
  }

  private refuse(error: ChildFrameError): void {
    this.badFrame = error;
    this.diagnostics += `\n${error.message}`;
    // Told before the kill, so that whoever runs the agent ends it for this reason and not as a crash.
    this.brokenFrames.fire(error);
    this.kill();
  }

  get alive(): boolean {
    return this.exit === null;
  }

  send(message: ToChild): void {
    this.process.send(message);
  }

  /** Answers the call the child is blocked on. */
  answer(response: string): void {
    if (this.alive) this.channel.write(encodeTextFrame(response));
  }

  signal(signal: 'SIGSTOP' | 'SIGCONT'): void {
    if (this.alive) this.process.kill(signal);
  }

  /** Immediate: SIGKILL, nothing of the agent runs after it. */
  kill(): void {
    if (this.alive) this.process.kill('SIGKILL');
  }
}
