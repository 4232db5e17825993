import { utilityProcess, type MessagePortMain, type UtilityProcess } from 'electron';
import { Emitter, type Disposable } from '../../src-preload/rpc/disposable';
import { parseHostToMainMessage, type MainToHostMessage } from './hostProcessMessages';

export interface HostProcessOptions {
  /** dist/electron/hostProcess.js */
  readonly modulePath: string;
  /** The app home: Electron's userData unless OMNI_HOME was set. */
  readonly home: string;
  /** Folder with node_modules/<native> built for Electron's ABI; undefined where the default build already is. */
  readonly nativeModulesDir: string | undefined;
}

/** More crashes than this within CRASH_WINDOW_MS and we stop restarting: something is broken, not flaky. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 60_000;
const SHUTDOWN_GRACE_MS = 3_000;

/**
 * Runs the host in an Electron utility process and keeps it running: when it dies, it is restarted with backoff
 * and `onDidStart` fires, so the windows can be handed fresh ports. Restarts stop after repeated crashes, and
 * `onDidGiveUp` carries the last error the host reported.
 */
export class HostProcessSupervisor implements Disposable {
  private child: UtilityProcess | undefined;
  private stopping = false;
  private crashes: number[] = [];
  private lastFatal = '';
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly didStart = new Emitter<void>();
  private readonly didGiveUp = new Emitter<string>();
  private readonly homeInUse = new Emitter<string>();
  readonly onDidStart = this.didStart.event;
  readonly onDidGiveUp = this.didGiveUp.event;
  /** Another host runs on this home (its pid and address in the message): not restarted, the app should quit. */
  readonly onHomeInUse = this.homeInUse.event;

  constructor(private readonly options: HostProcessOptions) {}

  get isRunning(): boolean {
    return this.child !== undefined;
  }

  start(): void {
    if (this.child || this.stopping) return;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    env.OMNI_HOME = this.options.home;
    if (this.options.nativeModulesDir) env.OMNI_NATIVE_MODULES_DIR = this.options.nativeModulesDir;
    else delete env.OMNI_NATIVE_MODULES_DIR;
    // The host must never run Electron as plain Node from an inherited variable.
    delete env.ELECTRON_RUN_AS_NODE;

    const child = utilityProcess.fork(this.options.modulePath, [], { env, serviceName: 'Omniscient Shell host', stdio: 'inherit' });
    this.child = child;
    let homeInUse: string | undefined;
    child.on('message', (raw: unknown) => {
      const message = parseHostToMainMessage(raw);
      if (message?.type === 'fatal') this.lastFatal = message.message;
      if (message?.type === 'home_in_use') homeInUse = message.message;
    });
    child.once('exit', (code) => {
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      if (homeInUse === undefined) this.restartAfterCrash(code);
      else this.homeInUse.fire(homeInUse);
    });
    this.didStart.fire();
  }

  private restartAfterCrash(code: number): void {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    console.error(`[main] the host process exited with code ${code}`);
    if (this.crashes.length > MAX_CRASHES) {
      this.didGiveUp.fire(this.lastFatal || `The host process exited ${this.crashes.length} times within a minute (last exit code ${code}).`);
      return;
    }
    const delay = Math.min(8_000, 250 * 2 ** (this.crashes.length - 1));
    this.restartTimer = setTimeout(() => this.start(), delay);
  }

  /** Hands the host one end of a window's channel; false when no host is running (the next start re-offers). */
  connect(windowId: number, port: MessagePortMain): boolean {
    if (!this.child) return false;
    this.post({ type: 'connect', windowId }, [port]);
    return true;
  }

  disconnect(windowId: number): void {
    this.post({ type: 'disconnect', windowId });
  }

  private post(message: MainToHostMessage, ports: MessagePortMain[] = []): void {
    this.child?.postMessage(message, ports);
  }

  /** Asks the host to close its database and exit, and kills it if it has not within a few seconds. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.post({ type: 'shutdown' });
    });
    this.child = undefined;
  }

  dispose(): void {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.child?.kill();
    this.child = undefined;
    this.didStart.dispose();
    this.didGiveUp.dispose();
    this.homeInUse.dispose();
  }
}
