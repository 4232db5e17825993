import { ipcMain, MessageChannelMain, type IpcMainEvent, type WebContents } from 'electron';
import { DisposableStore, toDisposable, type Disposable } from '../../src-preload/rpc/disposable';
import type { HostProcessSupervisor } from './hostProcessSupervisor';
import { isTrustedTopFrame } from './trustedFrame';

/** The preload's two channels; src-preload/preload.ts spells them the same way (it cannot import from here). */
export const READY_CHANNEL = 'omni:ready';
export const PORT_CHANNEL = 'omni:port';

/**
 * Connects each window to the host with its own MessageChannelMain: one port to the host process, the other to
 * the window's top frame. A port is only handed to a frame that asked for it from our own app:// page in one of
 * our own windows; iframes, other pages and foreign windows get nothing. A reload asks again and gets a fresh
 * pair; when the host process restarts, every connected window gets a fresh pair without asking.
 */
export class WindowPortBroker implements Disposable {
  private readonly store = new DisposableStore();
  private readonly connected = new Set<WebContents>();

  constructor(
    private readonly host: HostProcessSupervisor,
    private readonly isOurWindow: (contents: WebContents) => boolean,
  ) {
    const onReady = (event: IpcMainEvent): void => this.onReady(event);
    ipcMain.on(READY_CHANNEL, onReady);
    this.store.add(toDisposable(() => ipcMain.removeListener(READY_CHANNEL, onReady)));
    this.store.add(host.onDidStart(() => this.connected.forEach((contents) => this.handOver(contents))));
  }

  private onReady(event: IpcMainEvent): void {
    const contents = event.sender;
    if (!this.isOurWindow(contents) || !isTrustedTopFrame(contents.mainFrame, event.senderFrame)) {
      console.warn(`[main] refused a port request from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      return;
    }
    if (!this.connected.has(contents)) {
      this.connected.add(contents);
      // Read the id now: a destroyed WebContents throws on property access.
      const windowId = contents.id;
      contents.once('destroyed', () => {
        this.connected.delete(contents);
        this.host.disconnect(windowId);
      });
    }
    this.handOver(contents);
  }

  private handOver(contents: WebContents): void {
    if (contents.isDestroyed() || !isTrustedTopFrame(contents.mainFrame, contents.mainFrame)) return;
    const { port1, port2 } = new MessageChannelMain();
    if (!this.host.connect(contents.id, port2)) {
      // No host right now; the supervisor's next start hands this window a port.
      port1.close();
      return;
    }
    contents.mainFrame.postMessage(PORT_CHANNEL, null, [port1]);
  }

  dispose(): void {
    this.store.dispose();
    this.connected.clear();
  }
}
