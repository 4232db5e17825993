import { Emitter, type Disposable } from './disposable';
import type { Transport } from './transport';

/** Two connected in-process transports: the host's own tests and the CLI drive the RPC layer through them. */
export function createMemoryTransportPair(): [Transport, Transport] {
  const messages = [new Emitter<unknown>(), new Emitter<unknown>()] as const;
  const closes = [new Emitter<string>(), new Emitter<string>()] as const;
  let closed = false;
  const make = (self: 0 | 1): Transport => {
    const other = self === 0 ? 1 : 0;
    return {
      send(frame) {
        if (!closed) void Promise.resolve().then(() => messages[other].fire(frame));
      },
      onMessage(listener): Disposable {
        return messages[self].event(listener);
      },
      onClose(listener): Disposable {
        return closes[self].event(listener);
      },
      close(reason = 'closed') {
        if (closed) return;
        closed = true;
        closes[0].fire(reason);
        closes[1].fire(reason);
      },
    };
  };
  return [make(0), make(1)];
}
