import { EventEmitter } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/** What Electron's MessagePortMain emits with 'message' (Electron 45 docs: `{ data, ports }`). */
export interface MessageEventMain {
  data: unknown;
  ports: MessagePortMain[];
}

/**
 * Electron's MessagePortMain over a worker_threads MessagePort, following Electron 45's documentation:
 * - an EventEmitter (`on('message', ({ data, ports }) => …)`), not an EventTarget;
 * - messages are queued until `start()`;
 * - 'close' is emitted when the *remote* end becomes disconnected (closing it yourself emits nothing here);
 * - `postMessage(message, transfer)`: a port can be transferred once; afterwards the sender's object is neutered
 *   (posting on it does nothing, transferring it again throws, like Electron's "already neutered" error).
 */
export class MessagePortMain extends EventEmitter {
  private port: MessagePort | undefined;
  private started = false;
  private closedHere = false;
  private readonly onMessage = (data: unknown): void => {
    this.emit('message', { data, ports: [] } satisfies MessageEventMain);
  };
  private readonly onClose = (): void => {
    this.port = undefined;
    if (!this.closedHere) this.emit('close');
  };

  constructor(port: MessagePort) {
    super();
    this.port = port;
    port.on('close', this.onClose);
  }

  get isNeutered(): boolean {
    return this.port === undefined && !this.closedHere;
  }

  start(): void {
    if (this.started || !this.port) return;
    this.started = true;
    // A 'message' listener starts a Node port; until then Node queues what arrives, as Electron does.
    this.port.on('message', this.onMessage);
  }

  postMessage(message: unknown, transfer: MessagePortMain[] = []): void {
    if (transfer.length > 0) throw new Error('the electron stand-in does not transfer ports through a port (the shell never does)');
    this.port?.postMessage(message);
  }

  close(): void {
    if (!this.port) return;
    this.closedHere = true;
    const port = this.port;
    this.port = undefined;
    port.close();
  }

  /**
   * Transfers the port: returns the underlying Node port and leaves this object neutered. Throws when it was already
   * transferred or closed, as Electron does for a port that is "already neutered".
   */
  takeForTransfer(): MessagePort {
    const port = this.port;
    if (!port) throw new Error('Port is already neutered or closed and cannot be transferred');
    this.port = undefined;
    port.off('close', this.onClose);
    if (this.started) port.off('message', this.onMessage);
    this.started = false;
    return port;
  }
}

/** Electron's MessageChannelMain: two entangled MessagePortMains. */
export class MessageChannelMain {
  readonly port1: MessagePortMain;
  readonly port2: MessagePortMain;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port1 = new MessagePortMain(port1);
    this.port2 = new MessagePortMain(port2);
  }
}

/** Every port of `transfer` handed over once; throws (transferring none) if one of them cannot be. */
export function transferPorts(transfer: readonly MessagePortMain[]): MessagePort[] {
  if (new Set(transfer).size !== transfer.length) throw new Error('a port appears twice in the transfer list');
  const bad = transfer.findIndex((port) => !port || port.isNeutered);
  if (bad >= 0) throw new Error(`Port at index ${bad} is already neutered`);
  return transfer.map((port) => port.takeForTransfer());
}
