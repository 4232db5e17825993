import type { MessageEvent, MessagePortMain } from 'electron';
import { Emitter, type Disposable } from '../../src-preload/rpc/disposable';
import type { Transport } from '../../src-preload/rpc/transport';

/**
 * The host's end of the Electron transport: one MessagePortMain whose other end lives in the window. It carries
 * the same frames as the WebSocket of the headless server, so RpcServer never knows which one it serves.
 *
 * The port queues messages until `start()`, so nothing the renderer sends before the host is ready is lost.
 */
export class MessagePortMainTransport implements Transport {
  private readonly messages = new Emitter<unknown>();
  private readonly closes = new Emitter<string>();
  private closed = false;

  constructor(private readonly port: MessagePortMain) {
    port.on('message', (event: MessageEvent) => {
      // Whatever the window sends is untrusted and typed `unknown`; RpcServer validates every frame.
      if (!this.closed) this.messages.fire(event.data);
    });
    // Electron emits `close` when the other end goes away: the window reloaded, navigated or was destroyed.
    port.on('close', () => this.finish('the window closed its port'));
    port.start();
  }

  send(frame: string | Uint8Array<ArrayBuffer>): void {
    if (!this.closed) this.port.postMessage(frame);
  }

  onMessage(listener: (frame: unknown) => void): Disposable {
    return this.messages.event(listener);
  }

  onClose(listener: (reason: string) => void): Disposable {
    return this.closes.event(listener);
  }

  close(reason = 'closed'): void {
    this.finish(reason);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.port.close();
    this.closes.fire(reason);
    this.messages.dispose();
    this.closes.dispose();
  }
}
