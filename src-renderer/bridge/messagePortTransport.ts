import { Emitter, type Disposable } from '../../src-preload/rpc/disposable';
import type { Transport } from '../../src-preload/rpc/transport';

/** The Electron transport: the MessagePort the preload hands over. The port is already connected when we get it. */
export function messagePortTransport(port: MessagePort): Transport {
  const messages = new Emitter<unknown>();
  const closes = new Emitter<string>();
  let closed = false;

  const finish = (reason: string): void => {
    if (closed) return;
    closed = true;
    port.onmessage = null;
    port.close();
    closes.fire(reason);
    messages.dispose();
    closes.dispose();
  };

  port.onmessage = (event: MessageEvent) => messages.fire(event.data);
  // Chromium fires `close` on an entangled port when the other side goes away; older builds never do, in which
  // case the preload's next 'omni:port' message is what tells us the host came back.
  port.addEventListener('close', () => finish('the host closed the port'));

  return {
    send(frame) {
      if (!closed) port.postMessage(frame);
    },
    onMessage: (listener): Disposable => messages.event(listener),
    onClose: (listener): Disposable => closes.event(listener),
    close: (reason = 'closed') => finish(reason),
  };
}

/**
 * Calls `listener` with every port the preload posts (`window.postMessage('omni:port', '*', [port])`). Only
 * messages from this window itself count, so an embedded frame cannot hand us a port of its own.
 */
export function onPreloadPort(listener: (port: MessagePort) => void): Disposable {
  const handler = (event: MessageEvent): void => {
    if (event.source !== window || event.data !== 'omni:port' || event.ports.length === 0) return;
    listener(event.ports[0]);
  };
  window.addEventListener('message', handler);
  return { dispose: () => window.removeEventListener('message', handler) };
}
