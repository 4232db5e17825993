import { BrowserWindow } from 'electron';
import { RENDERER_ENTRY_URL } from './rendererOrigin';

/**
 * The app window. Its page is untrusted (DESIGN.md, invariant 7): it runs in Chromium's sandbox, isolated from
 * the preload's world, without Node, with the same-origin policy on and no <webview>; the preload only hands it
 * a MessagePort. The preferences are written out literally here so that reviewers,
 * test/electron-main/electronShellSecurity and Electronegativity can all read them in one place.
 */
export function createMainWindow(preloadPath: string, allowDevTools: boolean): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Omniscient Shell',
    show: false,
    backgroundColor: '#11161d',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Middle-click would ask for a new window; the window-open handler refuses those anyway.
      disableBlinkFeatures: 'Auxclick',
      // The spellchecker downloads dictionaries from Google; the app makes no network requests of its own.
      spellcheck: false,
      devTools: allowDevTools,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(RENDERER_ENTRY_URL);
  return window;
}
