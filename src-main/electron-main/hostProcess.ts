// The host inside Electron: a utility process (a Node process without Electron's browser APIs) that runs every
// service of src-main/node and serves each window over its own MessagePort. The main process forks it, hands it
// ports and restarts it if it dies; the window reconnects by itself when a new port arrives.
import type { MessageEvent, ParentPort } from 'electron';
import packageJson from '../../package.json';
import { contract, type Contract } from '../../src-preload/contract';
import { DisposableStore } from '../../src-preload/rpc/disposable';
import { RpcServer } from '../../src-preload/rpc/rpcServer';
import { HostLog } from '../node/base/hostLog';
import { resolveHome } from '../node/home';
import { HomeInUseError } from '../node/homeLock';
import { createHostServices } from '../node/hostServices';
import { SecretScrubber } from '../node/vault/secretScrubber';
import { startLocalControl } from '../server/localControl';
import { parseMainToHostMessage, type HostToMainMessage } from './hostProcessMessages';
import { MessagePortMainTransport } from './messagePortMainTransport';

/** Typed so that plain Node (where `parentPort` does not exist) is caught instead of crashing on `undefined`. */
const parentPort: ParentPort | undefined = (process as { parentPort?: ParentPort }).parentPort;
if (!parentPort) {
  console.error('hostProcess.js runs inside Electron as a utility process; use `omni serve` to run the host under Node.');
  process.exit(2);
}
const toMain = (message: HostToMainMessage): void => parentPort.postMessage(message);

// The main process passes the app home (Electron's userData unless OMNI_HOME was set) in the environment.
// resolveHome creates the home's folders, and fails like any other start (a file where a folder belongs, no
// permission): inside the promise, so that failure reaches the main process as `fatal` below and is shown, instead
// of killing the process with an uncaught exception the main process only sees as an exit code.
let home = '';
const services = new Promise<Awaited<ReturnType<typeof createHostServices>>>((resolve) => {
  home = resolveHome(process.env.OMNI_HOME);
  resolve(createHostServices({ home, version: packageJson.version }));
});
// `omni shell` and other scripts reach this host too, through host.json (the windows use their MessagePorts).
// Failing that costs only the CLI its way in (said in the host log); the windows keep working.
const localControl = services.then(
  (ready) =>
    startLocalControl(home, ready).catch((error: unknown) => {
      ready.log.error('the endpoint for the omni CLI did not start:', error);
      return null;
    }),
  () => null,
);

/** One RPC server per window; a window that reloads gets a fresh port and replaces its old connection. */
const connections = new Map<number, DisposableStore>();

function disconnect(windowId: number): void {
  connections.get(windowId)?.dispose();
  connections.delete(windowId);
}

async function connect(windowId: number, event: MessageEvent): Promise<void> {
  const port = event.ports[0];
  if (!port) return;
  const { handlers, log } = await services;
  disconnect(windowId);
  const owner = new DisposableStore();
  const transport = new MessagePortMainTransport(port);
  owner.add({ dispose: () => transport.close('replaced') });
  owner.add(
    new RpcServer<Contract>(contract, handlers, transport, 'messageport', {
      // Through the host log, which scrubs secrets: an unexpected error is where a token gets quoted by accident.
      onInternalError: (method, error) => log.error(`${method} failed:`, error),
    }),
  );
  owner.add(
    transport.onClose(() => {
      if (connections.get(windowId) === owner) disconnect(windowId);
    }),
  );
  connections.set(windowId, owner);
}

let stopping: Promise<void> | undefined;

function shutdown(): Promise<void> {
  stopping ??= (async () => {
    for (const windowId of [...connections.keys()]) disconnect(windowId);
    try {
      await (await localControl)?.close();
      await (await services).dispose();
    } finally {
      process.exit(0);
    }
  })();
  return stopping;
}

// The supervisor's kill after its grace period is a SIGTERM: stop as cleanly as asked (terminals, runs and the
// database closed), unless a stop is already under way and stuck, in which case leave at once.
process.on('SIGTERM', () => {
  if (stopping) process.exit(0);
  void shutdown();
});

parentPort.on('message', (event: MessageEvent) => {
  const message = parseMainToHostMessage(event.data);
  if (!message) return;
  switch (message.type) {
    case 'connect':
      // If the services failed to start, the port is simply dropped: the process is about to exit anyway.
      connect(message.windowId, event).catch(() => event.ports[0]?.close());
      return;
    case 'disconnect':
      disconnect(message.windowId);
      return;
    case 'shutdown':
      void shutdown();
      return;
  }
});

services.then(
  () => toMain({ type: 'ready' }),
  (error: unknown) => {
    if (error instanceof HomeInUseError) {
      // An `omni serve` runs on this home: nothing was opened; the main process says so and quits (no restarts).
      toMain({ type: 'home_in_use', message: error.message });
      setTimeout(() => process.exit(1), 100);
      return;
    }
    // Usually a native module built for the wrong ABI or an unreadable database; the main process shows this.
    // The services (and their registry of known secrets) never came up: token patterns still apply.
    const startupLog = new HostLog({ scrub: (text) => new SecretScrubber().scrubText(text), prefix: '[host]' });
    const message = startupLog.redact(error instanceof Error ? error.stack ?? error.message : String(error));
    startupLog.error('could not start:', message);
    toMain({ type: 'fatal', message });
    // Give the message a moment to cross before the process goes away.
    setTimeout(() => process.exit(1), 100);
  },
);
