// The Electron preload. It hands the page one MessagePort to the host and exposes nothing else: no contextBridge
// API, no ipcRenderer, no Node. Every call then travels as a validated RPC frame over that port.
//
// Channel names: src-main/electron-main/windowPortBroker.ts spells them the same way (the preload may not import
// from src-main).
import { ipcRenderer, type IpcRendererEvent } from 'electron';

const READY_CHANNEL = 'omni:ready';
const PORT_CHANNEL = 'omni:port';

// Each port (the first one and the fresh one after a host restart) goes to the page as it is; the page keeps only
// messages whose source is its own window, so a frame cannot slip it a port of its own.
ipcRenderer.on(PORT_CHANNEL, (event: IpcRendererEvent) => {
  window.postMessage(PORT_CHANNEL, '*', event.ports);
});

// Ask only once the page's scripts have run, so its listener for the port is in place when the port arrives.
function askForPort(): void {
  ipcRenderer.send(READY_CHANNEL);
}
if (document.readyState === 'complete') askForPort();
else window.addEventListener('load', askForPort, { once: true });
