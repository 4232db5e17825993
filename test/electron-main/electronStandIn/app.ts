import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { appState, preventableEvent } from './appState';
import { SingleInstanceLock } from './singleInstanceLock';
import { standInEvents } from './standInEvents';

/** The Electron version whose documented behaviour the stand-in follows (package.json's devDependency). */
export const ELECTRON_VERSION = '45.4.1';

// Electron sets these; the shell reads process.versions.electron (nativeModulesDir.ts).
Object.defineProperty(process.versions, 'electron', { value: ELECTRON_VERSION, enumerable: true });
Object.defineProperty(process, 'type', { value: 'browser', enumerable: true, configurable: true });

/**
 * Electron's `app`, following the Electron 45 docs (api/app.md) where the shell depends on it:
 * - 'ready' is emitted once, after the main script has run; `whenReady()` resolves then;
 * - `enableSandbox()` only before ready;
 * - `quit()`: 'before-quit' (preventDefault cancels the quit), then every window is closed (a window whose 'close'
 *   is prevented cancels it), 'will-quit' (preventable), 'quit', and the process exits with code 0;
 * - 'window-all-closed' is emitted when the last window closes, except while quitting; without a listener the app
 *   quits instead;
 * - `exit(code)` exits at once without 'before-quit' or 'will-quit';
 * - `requestSingleInstanceLock(additionalData)` is synchronous and works across processes; the owner gets
 *   'second-instance' (event, argv, workingDirectory, additionalData).
 */
class App extends EventEmitter {
  readonly isPackaged = false;
  private readonly paths = new Map<string, string>();
  private lock: SingleInstanceLock | undefined;
  private exiting = false;
  private readonly ready: Promise<void>;
  // Electron's main process lives until it quits, whatever its event loop holds.
  private readonly keepAlive = setInterval(() => {}, 1 << 30);

  constructor() {
    super();
    this.ready = new Promise((resolve) =>
      setImmediate(() => {
        appState.ready = true;
        this.emit('will-finish-launching');
        this.emit('ready', preventableEvent(), {});
        resolve();
      }),
    );
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  isReady(): boolean {
    return appState.ready;
  }

  enableSandbox(): void {
    if (appState.ready) throw new Error('app.enableSandbox() can only be called before app is ready');
  }

  getAppPath(): string {
    return process.cwd();
  }

  getPath(name: string): string {
    const set = this.paths.get(name);
    if (set) return set;
    if (name === 'home') return homedir();
    if (name === 'userData') return join(homedir(), '.config', 'omniscient-shell');
    if (name === 'temp') return process.env.TMPDIR ?? '/tmp';
    return join(homedir(), name);
  }

  setPath(name: string, path: string): void {
    this.paths.set(name, path);
  }

  requestSingleInstanceLock(additionalData?: unknown): boolean {
    this.lock ??= new SingleInstanceLock(this.getPath('userData'));
    const notice = { argv: process.argv, workingDirectory: process.cwd(), additionalData: additionalData ?? null };
    return this.lock.request(notice, (received) => {
      standInEvents.record({ kind: 'second-instance', argv: received.argv });
      this.emit('second-instance', preventableEvent(), received.argv, received.workingDirectory, received.additionalData);
    });
  }

  hasSingleInstanceLock(): boolean {
    return this.lock?.isHeld ?? false;
  }

  releaseSingleInstanceLock(): void {
    this.lock?.release();
  }

  quit(): void {
    if (this.exiting) return;
    const beforeQuit = preventableEvent();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    appState.quitting = true;
    if (!appState.closeAllWindows()) {
      appState.quitting = false;
      return;
    }
    const willQuit = preventableEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) {
      appState.quitting = false;
      return;
    }
    this.finish(0, true);
  }

  exit(exitCode = 0): void {
    if (this.exiting) return;
    this.finish(exitCode, false);
  }

  /** Called by browserWindow.ts when the last window has closed. */
  lastWindowClosed(): void {
    if (appState.quitting || this.exiting) return;
    if (this.listenerCount('window-all-closed') > 0) this.emit('window-all-closed', preventableEvent());
    else this.quit();
  }

  focus(): void {}

  private finish(exitCode: number, emitQuit: boolean): void {
    this.exiting = true;
    if (emitQuit) this.emit('quit', preventableEvent(), exitCode);
    this.lock?.release();
    standInEvents.record({ kind: 'app-quit', exitCode });
    const hooks = appState.beforeExit.map((hook) => hook().catch(() => {}));
    const bounded = new Promise((resolve) => setTimeout(resolve, 2_000).unref());
    void Promise.race([Promise.all(hooks), bounded]).then(() => {
      clearInterval(this.keepAlive);
      process.exit(exitCode);
    });
  }
}

export const app = new App();
