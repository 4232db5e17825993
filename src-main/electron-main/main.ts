// The Electron shell around the host: one window showing the renderer from app://, the host in a utility process,
// and a MessagePort between them per window. Everything here is about keeping the page untrusted (DESIGN.md,
// invariant 7); no app logic lives in this process.
import { app, BrowserWindow, dialog, session, type WebContents } from 'electron';
import { join } from 'node:path';
import { registerAppSchemeAsPrivileged, serveRendererOverAppProtocol } from './appProtocol';
import { HostProcessSupervisor } from './hostProcessSupervisor';
import { createMainWindow } from './mainWindow';
import { electronNativeModulesDir } from './nativeModulesDir';
import { WindowPortBroker } from './windowPortBroker';
import { hardenWebContents, restrictPermissions } from './windowSecurity';

// Bundled to dist/electron/main.js beside preload.js and hostProcess.js; the renderer build is dist/renderer.
const preloadPath = join(__dirname, 'preload.js');
const hostProcessPath = join(__dirname, 'hostProcess.js');
const rendererDir = join(__dirname, '..', 'renderer');
// Not app.getAppPath(): launched as `electron dist/electron/main.js` (as Playwright does) that is dist/electron.
const projectRoot = join(__dirname, '..', '..');

// An explicit OMNI_HOME (tests, a second profile) also moves Chromium's profile, so two homes never share a
// profile or the single-instance lock. Otherwise the app home is Electron's userData (DESIGN.md, Data).
if (process.env.OMNI_HOME) app.setPath('userData', join(process.env.OMNI_HOME, 'electron-profile'));
const home = process.env.OMNI_HOME ?? app.getPath('userData');

// Before `ready`: every renderer sandboxed, and app:// registered as a privileged standard scheme.
app.enableSandbox();
registerAppSchemeAsPrivileged();

const windows = new Set<BrowserWindow>();
const isOurWindow = (contents: WebContents): boolean => {
  const owner = BrowserWindow.fromWebContents(contents);
  return owner !== null && windows.has(owner);
};

// Every web contents, including ones we did not create on purpose, gets the no-navigation, no-popup rules.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

function createWindow(): BrowserWindow {
  const window = createMainWindow(preloadPath, !app.isPackaged);
  windows.add(window);
  window.on('closed', () => windows.delete(window));
  return window;
}

function focus(window: BrowserWindow | undefined): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    // Another instance owns this profile and its database; it focuses its window instead.
    app.quit();
    return;
  }
  app.on('second-instance', () => focus([...windows][0]));

  await app.whenReady();

  const defaultSession = session.defaultSession;
  restrictPermissions(defaultSession);
  serveRendererOverAppProtocol(defaultSession, rendererDir);

  const nativeModulesDir = electronNativeModulesDir({
    appPath: projectRoot,
    isPackaged: app.isPackaged,
    electronVersion: process.versions.electron,
    env: process.env,
  });
  if (!app.isPackaged && !nativeModulesDir) {
    console.warn('[main] no Electron build of the native modules found; run `node scripts/electron-native.mjs` (npm start does).');
  }

  const host = new HostProcessSupervisor({ modulePath: hostProcessPath, home, nativeModulesDir });
  const broker = new WindowPortBroker(host, isOurWindow);
  host.onDidGiveUp((reason) => {
    dialog.showErrorBox('Omniscient Shell: the host keeps failing', `The background process that runs sessions stopped repeatedly.\n\n${reason}`);
  });
  // The single-instance lock above covers two apps on one profile; an `omni serve` on the same home is caught by the
  // host's home lock (node/homeLock.ts), and restarting cannot help.
  host.onHomeInUse((message) => {
    dialog.showErrorBox('Omniscient Shell is already running on this home', message);
    app.quit();
  });
  host.start();
  createWindow();

  app.on('activate', () => {
    if (windows.size === 0) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Let the host close its database cleanly before the app exits.
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    broker.dispose();
    void host.stop().finally(() => {
      stopped = true;
      app.quit();
    });
  });
}

main().catch((error: unknown) => {
  console.error('[main] failed to start:', error);
  app.exit(1);
});
