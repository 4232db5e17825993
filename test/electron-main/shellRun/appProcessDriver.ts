// Runs inside the app process, beside the shell: plays the page (what src-preload/preload.ts and the renderer's
// connection do with the port, using the renderer's real transport and the real RpcClient) and answers the test's
// commands (driverProtocol.ts) over the process's IPC channel.
import type { MessagePort as NodeMessagePort } from 'node:worker_threads';
import { contract, type Contract } from '../../../src-preload/contract';
import { RpcClient } from '../../../src-preload/rpc/rpcClient';
import { messagePortTransport } from '../../../src-renderer/bridge/messagePortTransport';
import { app } from '../electronStandIn/app';
import { appState } from '../electronStandIn/appState';
import { BrowserWindow } from '../electronStandIn/browserWindow';
import { privilegedSchemes, protocolState } from '../electronStandIn/protocol';
import { session } from '../electronStandIn/session';
import { standInEvents } from '../electronStandIn/standInEvents';
import type { WebContents } from '../electronStandIn/webContents';
import { WebFrameMain } from '../electronStandIn/webFrameMain';
import type { AppState, DriverMessage, DriverRequest } from './driverProtocol';

const READY_CHANNEL = 'omni:ready';
const PORT_CHANNEL = 'omni:port';
const RENDERER_URL = 'app://omni/index.html';

const send = (message: DriverMessage): void => {
  if (process.connected) process.send?.(message);
};

/** A page: asks for a port once loaded (as the preload does on 'load') and keeps one RpcClient on the latest port. */
class FakePage {
  portsReceived = 0;
  private client: RpcClient<Contract> | undefined;
  private waiting: Array<() => void> = [];

  constructor(readonly contents: WebContents) {
    contents.mainFrame.page = (channel, _message, ports) => {
      if (channel === PORT_CHANNEL && ports[0]) this.adopt(ports[0]);
      ports.slice(channel === PORT_CHANNEL ? 1 : 0).forEach((port) => port.close());
    };
    contents.on('did-finish-load', () => contents.mainFrame.sendToMain(READY_CHANNEL));
    // A reload ends the old document: its connection and port go with it.
    contents.on('did-start-loading', () => {
      this.client?.dispose();
      this.client = undefined;
    });
  }

  get connected(): boolean {
    return this.client !== undefined && !this.client.isClosed;
  }

  /** What the renderer's Connection does with a port from the preload: the old connection goes, a new one comes. */
  private adopt(port: NodeMessagePort): void {
    this.portsReceived++;
    this.client?.dispose();
    // Node's MessagePort has the DOM port's onmessage, addEventListener('close') and postMessage the transport uses.
    const transport = messagePortTransport(port as unknown as MessagePort);
    this.client = new RpcClient(contract, transport);
    this.waiting.splice(0).forEach((wake) => wake());
  }

  async call(method: string, params: unknown): Promise<unknown> {
    if (!this.connected) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the page got no port within 20 s')), 20_000);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const call = this.client!.call.bind(this.client!) as (method: string, params: unknown) => Promise<unknown>;
    return call(method, params);
  }
}

const pages = new Map<WebContents, FakePage>();
app.on('web-contents-created', (_event: unknown, contents: WebContents) => pages.set(contents, new FakePage(contents)));

function firstWindow(windowId?: number): BrowserWindow {
  const window = windowId === undefined ? BrowserWindow.getAllWindows()[0] : BrowserWindow.fromId(windowId);
  if (!window) throw new Error('no such window');
  return window;
}

function state(): AppState {
  const live = new Map<number, boolean>();
  for (const record of standInEvents.records) {
    if (record.kind === 'utility-fork') live.set(record.pid, true);
    if (record.kind === 'utility-exit') live.delete(record.pid);
  }
  return {
    windows: BrowserWindow.getAllWindows().map((window) => ({
      id: window.id,
      contentsId: window.webContents.id,
      url: window.webContents.getURL(),
      calls: window.calls,
      options: JSON.parse(JSON.stringify(window.options)) as Record<string, unknown>,
      loads: window.webContents.loads,
      portsReceived: pages.get(window.webContents)?.portsReceived ?? 0,
      connected: pages.get(window.webContents)?.connected ?? false,
    })),
    privilegedSchemes,
    utilityPids: [...live.keys()],
  };
}

/** Sends 'omni:ready' from a frame that must not get a port; resolves with the ports that frame was posted. */
async function readyFrom(from: 'iframe' | 'other-page' | 'foreign-window'): Promise<number> {
  const ours = firstWindow();
  let frame: WebFrameMain;
  let cleanup = (): void => {};
  if (from === 'iframe') {
    // A same-origin iframe of our page: same renderer process, its own routing id, a parent.
    frame = new WebFrameMain(ours.webContents, ours.webContents.mainFrame.processId, ours.webContents.mainFrame);
    frame.url = 'app://omni/frame.html';
  } else if (from === 'other-page') {
    // Our window's top frame, showing a page that is not ours (as after a navigation).
    frame = ours.webContents.mainFrame;
    const url = frame.url;
    frame.url = 'https://example.com/';
    cleanup = () => (frame.url = url);
  } else {
    // A window the shell did not create, showing our own page.
    const foreign = new BrowserWindow({ title: 'not ours' });
    await foreign.loadURL(RENDERER_URL);
    frame = foreign.webContents.mainFrame;
    cleanup = () => foreign.destroy();
  }
  const before = standInEvents.records.filter((r) => r.kind === 'port-posted' && r.routingId === frame.routingId).length;
  frame.sendToMain(READY_CHANNEL);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = standInEvents.records.filter((r) => r.kind === 'port-posted' && r.routingId === frame.routingId).length;
  cleanup();
  return after - before;
}

async function run(request: DriverRequest): Promise<unknown> {
  switch (request.cmd) {
    case 'state':
      return state();
    case 'call':
      return pages.get(firstWindow(request.windowId).webContents)!.call(request.method, request.params);
    case 'fetch': {
      const response = await protocolState.defaultProtocol.request(request.url, { method: request.method ?? 'GET' });
      return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
    }
    case 'ready-from':
      return readyFrom(request.from);
    case 'navigate':
      return firstWindow().webContents.pageNavigates(request.url);
    case 'open-window':
      return firstWindow().webContents.pageOpensWindow(request.url);
    case 'permission': {
      const defaultSession = session.defaultSession;
      const details = { requestingUrl: request.requestingUrl, isMainFrame: request.isMainFrame };
      const requested = await defaultSession.requestPermission(request.permission, details);
      const checked = defaultSession.permissionCheckHandler?.(null, request.permission, new URL(request.requestingUrl).origin, details) ?? true;
      return { requested, checked };
    }
    case 'reload':
      firstWindow().webContents.reload();
      return null;
    case 'minimize':
      firstWindow().minimize();
      return null;
    case 'close-window':
      return firstWindow().close();
    case 'quit':
      app.quit();
      return null;
  }
}

standInEvents.on('record', (record) => send({ record }));
process.on('message', (raw: unknown) => {
  const request = raw as DriverRequest;
  if (typeof request?.id !== 'number') return;
  run(request).then(
    (result) => send({ id: request.id, ok: true, result }),
    (error: unknown) => send({ id: request.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
});
// The app's last records (the host's exit, the quit) reach the test before the process exits.
appState.beforeExit.push(
  () => new Promise<void>((resolve) => (process.connected ? process.send!({ flushed: true } satisfies DriverMessage, () => resolve()) : resolve())),
);
