import type { WebSocket } from 'ws';
import { Emitter, type Disposable } from '../../src-preload/rpc';
import type { Transport } from '../../src-preload/rpc';

/** The host's end of the web transport: one WebSocket carrying the same frames as the Electron MessagePort. */
export class WebSocketTransport implements Transport {
  private readonly messages = new Emitter<unknown>();
  private readonly closes = new Emitter<string>();

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      // Binary frames are not part of the protocol: pass them on as-is so the RPC layer answers BAD_FRAME.
      this.messages.fire(isBinary ? data : data.toString());
    });
    socket.on('close', (code, reason) => this.closes.fire(`${code} ${reason.toString()}`.trim()));
    socket.on('error', () => socket.terminate());
  }

  send(frame: string | Uint8Array<ArrayBuffer>): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame);
  }

  onMessage(listener: (frame: unknown) => void): Disposable {
    return this.messages.event(listener);
  }

  onClose(listener: (reason: string) => void): Disposable {
    return this.closes.event(listener);
  }

  close(reason = 'closed'): void {
    this.socket.close(1000, reason.slice(0, 120));
  }
}
