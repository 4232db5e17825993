import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { Emitter, type Disposable } from '../../src-preload/rpc';
import type { Transport } from '../../src-preload/rpc';

/** The host's end of the web transport: one WebSocket carrying the same frames as the Electron MessagePort. */
export class WebSocketTransport implements Transport {
  private readonly messages = new Emitter<unknown>();
  private readonly closes = new Emitter<string>();
  private corked = false;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      // Binary frames are not part of the protocol: pass them on as-is so the RPC layer answers BAD_FRAME.
      this.messages.fire(isBinary ? data : data.toString());
    });
    socket.on('close', (code, reason) => this.closes.fire(`${code} ${reason.toString()}`.trim()));
    socket.on('error', () => socket.terminate());
  }

  send(frame: string | Uint8Array<ArrayBuffer>): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.cork();
    this.socket.send(frame);
  }

  /**
   * Holds the TCP socket's writes until the current turn of the event loop is over, so the frames of one turn go
   * out in one write: ws writes each frame (header, payload) with a writev of its own, and a stream of many small
   * items (an ACP agent's chunks, 10,000 a second) otherwise spends much of the host's time in those syscalls.
   * ws keeps its socket to itself (`_socket`); without it, frames go out one by one as before.
   */
  private cork(): void {
    if (this.corked) return;
    const tcp = (this.socket as unknown as { _socket?: Socket })._socket;
    if (!tcp || typeof tcp.cork !== 'function') return;
    this.corked = true;
    tcp.cork();
    process.nextTick(() => {
      this.corked = false;
      tcp.uncork();
    });
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
