import { EventEmitter } from 'node:events';
import { app } from './app';
import { appState, preventableEvent } from './appState';
import { standInEvents } from './standInEvents';
import { WebContents } from './webContents';

const allWindows = new Set<BrowserWindow>();
let nextId = 1;

/**
 * Electron's BrowserWindow, as an EventEmitter recording what the shell asks of it (its options, show/focus/restore
 * calls). Creating one creates its WebContents and emits app 'web-contents-created'; loading the page emits
 * 'ready-to-show'; closing emits 'close' (preventable), then the page's 'destroyed' and the window's 'closed', and
 * the app's 'window-all-closed' logic once none is left.
 */
export class BrowserWindow extends EventEmitter {
  readonly id = nextId++;
  readonly webContents = new WebContents();
  readonly calls: string[] = [];
  private minimized = false;
  private destroyed = false;

  static getAllWindows(): BrowserWindow[] {
    return [...allWindows];
  }

  static fromWebContents(contents: unknown): BrowserWindow | null {
    return [...allWindows].find((window) => window.webContents === contents) ?? null;
  }

  static fromId(id: number): BrowserWindow | null {
    return [...allWindows].find((window) => window.id === id) ?? null;
  }

  constructor(readonly options: Record<string, unknown> = {}) {
    super();
    allWindows.add(this);
    app.emit('web-contents-created', preventableEvent(), this.webContents);
    this.webContents.once('did-finish-load', () => setImmediate(() => this.emit('ready-to-show')));
  }

  private call(method: string): void {
    this.calls.push(method);
    standInEvents.record({ kind: 'window-call', windowId: this.id, method });
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  show(): void {
    this.call('show');
  }

  focus(): void {
    this.call('focus');
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  minimize(): void {
    this.minimized = true;
    this.call('minimize');
  }

  restore(): void {
    this.minimized = false;
    this.call('restore');
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Asks to close: false when a 'close' listener prevented it. */
  close(): boolean {
    if (this.destroyed) return true;
    const event = preventableEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    allWindows.delete(this);
    this.webContents.destroy();
    this.emit('closed');
    if (allWindows.size === 0) app.lastWindowClosed();
  }
}

appState.closeAllWindows = () => BrowserWindow.getAllWindows().every((window) => window.close());
