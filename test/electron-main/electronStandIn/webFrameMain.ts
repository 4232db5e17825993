import { EventEmitter } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import { ipcMain } from './ipcMain';
import { transferPorts, type MessagePortMain } from './messagePortMain';
import { standInEvents } from './standInEvents';
import type { WebContents } from './webContents';

let nextRoutingId = 1;

/** What a page (the test driver's fake one) does with what the main process posts to its frame. */
export type PageListener = (channel: string, message: unknown, ports: MessagePort[]) => void;

/**
 * Electron's WebFrameMain: a frame of a page, identified by its renderer process and routing id, with its URL and
 * its parent (null for the top frame). `postMessage(channel, message, transfer)` hands MessagePortMains to the
 * page's ipcRenderer (transferred once, as every transfer is); here the page is whatever listener the test driver
 * attached, and ports nobody takes are closed.
 */
export class WebFrameMain extends EventEmitter {
  readonly routingId = nextRoutingId++;
  readonly frames: WebFrameMain[] = [];
  url = '';
  page: PageListener | undefined;

  constructor(
    readonly contents: WebContents,
    readonly processId: number,
    readonly parent: WebFrameMain | null,
  ) {
    super();
    parent?.frames.push(this);
  }

  get top(): WebFrameMain {
    return this.parent ? this.parent.top : this;
  }

  postMessage(channel: string, message: unknown, transfer: MessagePortMain[] = []): void {
    const ports = transferPorts(transfer);
    standInEvents.record({ kind: 'port-posted', contentsId: this.contents.id, routingId: this.routingId, channel, ports: ports.length });
    if (this.page && !this.contents.isDestroyed()) this.page(channel, message, ports);
    else ports.forEach((port) => port.close());
  }

  /** Stand-in only: the page's preload calls ipcRenderer.send(channel, ...args) in this frame. */
  sendToMain(channel: string, ...args: unknown[]): void {
    const event = { sender: this.contents, senderFrame: this, frameId: this.routingId, processId: this.processId, ports: [] };
    this.contents.emit('ipc-message', event, channel, ...args);
    ipcMain.emit(channel, event, ...args);
  }
}
