import { fork, type ChildProcess, type StdioOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { appState } from './appState';
import { transferPorts, type MessagePortMain } from './messagePortMain';
import { isRelayMessage, PortRelays, type RelayMessage } from './portRelay';
import { standInEvents } from './standInEvents';

/** The child side's shim, bundled beside the app's main.js by the test harness (shellRun/shellHarness.ts). */
export const PARENT_PORT_SHIM = 'electronStandInParentPort.cjs';

/** Where the shim is: beside the bundle this module is part of, unless a test that imports the sources says. */
export const shimLocation = { path: join(__dirname, PARENT_PORT_SHIM) };

type StdioMode = 'pipe' | 'ignore' | 'inherit';

/** The options of Electron 45's utilityProcess.fork that mean something here. */
export interface ForkOptions {
  env?: NodeJS.ProcessEnv;
  execArgv?: string[];
  cwd?: string;
  stdio?: StdioMode | [StdioMode, StdioMode, StdioMode];
  serviceName?: string;
}

function stdioFor(stdio: ForkOptions['stdio']): StdioOptions {
  // Electron's default is 'inherit'; a utility process's stdin is never connected. The fourth slot is the IPC channel
  // the relay and parentPort use.
  const [, out, err] = Array.isArray(stdio) ? stdio : ['ignore', stdio ?? 'inherit', stdio ?? 'inherit'];
  return ['ignore', out, err, 'ipc'];
}

/**
 * Electron's UtilityProcess over child_process.fork. Per the Electron 45 docs (api/utility-process.md): an
 * EventEmitter with 'spawn', 'message' (what the child posted on process.parentPort) and 'exit' (the exit code,
 * from waitpid on POSIX; for a process ended by a signal, the signal's number, as Chromium's termination status
 * reports it); `postMessage(message, transfer)` transfers MessagePortMains; `kill()` sends SIGTERM; `pid` is
 * undefined once the process has exited.
 */
export class UtilityProcess extends EventEmitter {
  pid: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  private readonly child: ChildProcess;
  private readonly relays: PortRelays;

  constructor(modulePath: string, args: string[], options: ForkOptions) {
    super();
    const child = fork(modulePath, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      // Not the app process's own execArgv (fork's default): a utility process starts plain, plus the shim.
      execArgv: ['--require', shimLocation.path, ...(options.execArgv ?? [])],
      serialization: 'advanced',
      stdio: stdioFor(options.stdio),
    });
    this.child = child;
    this.pid = child.pid;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    this.relays = new PortRelays((message) => this.send(message));
    const pid = child.pid ?? -1;
    standInEvents.record({ kind: 'utility-fork', pid, modulePath, serviceName: options.serviceName });

    child.on('spawn', () => this.emit('spawn'));
    child.on('message', (raw: unknown) => {
      if (!isRelayMessage(raw)) return;
      if (raw.standIn === 'parent-message') this.emit('message', raw.data);
      else this.relays.receive(raw);
    });
    child.on('exit', (code, signal) => {
      this.pid = undefined;
      this.relays.closeAll();
      const exitCode = code ?? (signal ? constants.signals[signal] : 1);
      standInEvents.record({ kind: 'utility-exit', pid, code: exitCode });
      this.emit('exit', exitCode);
    });
  }

  postMessage(message: unknown, transfer: MessagePortMain[] = []): void {
    const ports = transferPorts(transfer);
    if (!this.child.connected) {
      ports.forEach((port) => port.close());
      return;
    }
    this.send({ standIn: 'parent-message', data: message, ports: ports.map((port) => this.relays.adopt(port)) });
  }

  kill(): boolean {
    return this.pid !== undefined && this.child.kill('SIGTERM');
  }

  private send(message: RelayMessage): void {
    if (this.child.connected) this.child.send(message);
  }
}

export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: ForkOptions = {}): UtilityProcess {
    // Electron 45 docs: "utilityProcess.fork can only be called after the ready event has been emitted on App".
    if (!appState.ready) throw new Error('utilityProcess cannot be created before app is ready.');
    return new UtilityProcess(modulePath, args, options);
  },
};
