import { Emitter, type Disposable } from '../../src-preload/rpc/disposable';
import type { Transport } from '../../src-preload/rpc/transport';

/**
 * The browser's transport: one WebSocket to the headless host. Resolves once the socket is open, so the caller
 * knows the host accepted the token; rejects when the socket closes first (host down, wrong token, wrong origin).
 */
export function openWebSocketTransport(url: string): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    // The host's binary frames (terminal output) arrive as ArrayBuffers: no Blob round trip before decoding.
    socket.binaryType = 'arraybuffer';
    const messages = new Emitter<unknown>();
    const closes = new Emitter<string>();
    let opened = false;
    let closed = false;

    const transport: Transport = {
      send(frame) {
        // Sending on a closing socket throws in some browsers; the close event reports the failure instead.
        if (socket.readyState === WebSocket.OPEN) socket.send(frame);
      },
      onMessage: (listener): Disposable => messages.event(listener),
      onClose: (listener): Disposable => closes.event(listener),
      close(reason = 'closed') {
        if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000, reason.slice(0, 120));
        finish(reason);
      },
    };

    const finish = (reason: string): void => {
      if (closed) return;
      closed = true;
      closes.fire(reason);
      messages.dispose();
      closes.dispose();
    };

    socket.addEventListener('open', () => {
      opened = true;
      resolve(transport);
    });
    socket.addEventListener('message', (event: MessageEvent) => messages.fire(event.data));
    socket.addEventListener('close', (event: CloseEvent) => {
      const reason = event.reason || `socket closed (code ${event.code})`;
      if (!opened) reject(new Error(`could not reach the host: ${reason}`));
      finish(reason);
    });
  });
}
