import { EventEmitter } from 'node:events';
import { preventableEvent } from './appState';
import { protocolState } from './protocol';
import { WebFrameMain } from './webFrameMain';

let nextId = 1;

type WindowOpenHandler = (details: { url: string; frameName: string; features: string; disposition: string }) => { action: 'allow' | 'deny' };

/** A page load as the stand-in did it: through the session's protocol handler, as Chromium asks it for the page. */
export interface PageLoad {
  url: string;
  status: number;
  headers: Record<string, string>;
}

/**
 * Electron's WebContents, as an EventEmitter that records what the shell asked of it: its top frame, the window
 * open handler, loads ('did-finish-load' after the page came through the protocol handler), reloads, navigation
 * the page asks for ('will-navigate', preventable), 'destroyed'.
 */
export class WebContents extends EventEmitter {
  readonly id = nextId++;
  readonly mainFrame: WebFrameMain;
  windowOpenHandler: WindowOpenHandler | undefined;
  readonly loads: PageLoad[] = [];
  private destroyed = false;

  constructor() {
    super();
    // Each page its own renderer process, as Chromium's site isolation gives our app:// origin.
    this.mainFrame = new WebFrameMain(this, 1000 + this.id, null);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }

  async loadURL(url: string): Promise<void> {
    let response: Response;
    try {
      response = await protocolState.defaultProtocol.request(url);
    } catch (error) {
      this.emit('did-fail-load', preventableEvent(), -2, String(error), url, true);
      throw error;
    }
    this.loads.push({ url, status: response.status, headers: Object.fromEntries(response.headers) });
    if (this.destroyed) return;
    this.mainFrame.url = url;
    this.emit('dom-ready');
    this.emit('did-finish-load');
  }

  /** Reloads the page: the old document goes ('did-start-loading'; what it held, its ports included, closes), then loads again. */
  reload(): void {
    this.emit('did-start-loading');
    void this.loadURL(this.mainFrame.url);
  }

  /** Stand-in only: the page asks to navigate (a link, location.href=…). True when it went ahead. */
  pageNavigates(url: string): boolean {
    const event = { ...preventableEvent(), url, isMainFrame: true, frame: this.mainFrame };
    this.emit('will-navigate', event, url);
    this.emit('will-frame-navigate', event);
    if (event.defaultPrevented) return false;
    this.mainFrame.url = url;
    return true;
  }

  /** Stand-in only: the page calls window.open(url); the answer of the window open handler (none: allowed). */
  pageOpensWindow(url: string): 'allow' | 'deny' {
    return this.windowOpenHandler?.({ url, frameName: '', features: '', disposition: 'new-window' }).action ?? 'allow';
  }

  /** Called by the window that owns this page when it closes. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}
