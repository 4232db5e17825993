// Loaded with `--require` into every process the stand-in's utilityProcess.fork starts (bundled on its own to
// electronStandInParentPort.cjs beside the app's main.js). It gives the process what Electron gives a utility
// process: `process.parentPort`, an EventEmitter whose 'message' events carry `{ data, ports }` (ports are
// MessagePortMains) and are queued until a listener exists, and `parentPort.postMessage(message)`. Electron 45 docs:
// api/parent-port.md.
import { EventEmitter } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { MessagePortMain, type MessageEventMain } from './messagePortMain';
import { isRelayMessage, PortRelays, type RelayMessage } from './portRelay';

const send = (message: RelayMessage): void => {
  if (process.connected) process.send?.(message);
};

class ParentPort extends EventEmitter {
  private readonly queued: MessageEventMain[] = [];

  constructor() {
    super();
    this.on('newListener', (event: string) => {
      if (event !== 'message') return;
      // Deliver what waited once the listener is in place (the listener is added right after this event).
      setImmediate(() => this.queued.splice(0).forEach((message) => this.deliver(message)));
    });
  }

  deliver(message: MessageEventMain): void {
    if (this.listenerCount('message') === 0) this.queued.push(message);
    else this.emit('message', message);
  }

  postMessage(message: unknown): void {
    send({ standIn: 'parent-message', data: message, ports: [] });
  }
}

const parentPort = new ParentPort();
const relays = new PortRelays(send);
Object.defineProperty(process, 'parentPort', { value: parentPort, enumerable: false });

process.on('message', (raw: unknown) => {
  if (!isRelayMessage(raw)) return;
  if (raw.standIn !== 'parent-message') {
    relays.receive(raw);
    return;
  }
  const ports = raw.ports.map((id) => {
    const { port1, port2 } = new MessageChannel();
    relays.attach(id, port2);
    return new MessagePortMain(port1);
  });
  parentPort.deliver({ data: raw.data, ports });
});

// A utility process does not outlive the app: when the main process goes away, Chromium ends it. Said on stderr so
// that a test can tell this apart from the host exiting by itself.
process.on('disconnect', () => {
  console.error('[electron stand-in] the main process is gone; this utility process ends as Chromium would end it');
  process.exit(1);
});
