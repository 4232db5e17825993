import type { MessagePort } from 'node:worker_threads';

/**
 * Node cannot move a MessagePort to another process, and Electron moves MessagePortMains into utility processes.
 * So a port posted to a utility process stays in the process that posted it, and both ends relay over the child's
 * IPC channel (serialization 'advanced', so binary frames stay binary): every message with the id the port got,
 * and its closing. These are the messages on that channel; the stand-in's own, tagged so nothing else is mistaken
 * for one.
 */
export type RelayMessage =
  /** A parentPort message; `ports` are relay ids, each a new port on the receiving side. */
  | { standIn: 'parent-message'; data: unknown; ports: number[] }
  | { standIn: 'port-message'; id: number; data: unknown }
  | { standIn: 'port-close'; id: number };

export function isRelayMessage(value: unknown): value is RelayMessage {
  if (typeof value !== 'object' || value === null) return false;
  const tag = (value as { standIn?: unknown }).standIn;
  return tag === 'parent-message' || tag === 'port-message' || tag === 'port-close';
}

/**
 * One side's relayed ports: each local Node port's messages go out with its id, messages that come in with that id
 * go into it, and when either side closes, the other is closed too (which is what makes the far end see 'close',
 * as Electron's remote end does when a process dies).
 */
export class PortRelays {
  private readonly ports = new Map<number, MessagePort>();
  private nextId = 1;

  constructor(private readonly send: (message: RelayMessage) => void) {}

  /** Relays `port` under a fresh id (the sender's side) and returns the id. */
  adopt(port: MessagePort): number {
    const id = this.nextId++;
    this.attach(id, port);
    return id;
  }

  /** Relays `port` under an id the other side chose. */
  attach(id: number, port: MessagePort): void {
    this.ports.set(id, port);
    port.on('message', (data: unknown) => this.send({ standIn: 'port-message', id, data }));
    port.on('close', () => {
      if (this.ports.delete(id)) this.send({ standIn: 'port-close', id });
    });
  }

  receive(message: RelayMessage): void {
    if (message.standIn === 'port-message') this.ports.get(message.id)?.postMessage(message.data);
    if (message.standIn === 'port-close') {
      const port = this.ports.get(message.id);
      this.ports.delete(message.id);
      port?.close();
    }
  }

  /** The other process is gone: every relayed port closes, so whoever holds the far end sees 'close'. */
  closeAll(): void {
    const ports = [...this.ports.values()];
    this.ports.clear();
    for (const port of ports) port.close();
  }
}
