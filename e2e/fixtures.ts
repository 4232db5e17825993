import { _electron, expect, test as base, type Browser, type BrowserContext, type ElectronApplication, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinaryExists } from './electronBinary';
import { freePort, startHost, stopHost, type HostProcess } from './hostProcess';

const root = join(__dirname, '..');

export interface OmniApp {
  readonly mode: 'electron' | 'web';
  readonly page: Page;
  /** The host's app home, fresh for every test. */
  readonly home: string;
  /** A fresh folder for workspaces (its real path, as the host reports workspaces). */
  readonly scratch: string;
  /** Makes a new empty folder under `scratch` and returns its path. */
  newWorkspace(name: string): string;
  /** Kills the host with SIGKILL (a crash, not a shutdown) and starts it again on the same port and home. */
  restartHost(): Promise<void>;
  /** The text on the system clipboard (what a copy in the app put there). */
  readClipboard(): Promise<string>;
}

/** Tests read terminal text from xterm's DOM rows, so they pin the DOM renderer even where WebGL would work. */
async function pinDomRenderer(page: Page): Promise<void> {
  await page.addInitScript(() => {
    try {
      localStorage.setItem('omni.terminal.renderer', 'dom');
    } catch {
      // about:blank has no storage; the app's own origin does.
    }
  });
}

export interface OmniOptions {
  /**
   * Runs on the fresh, empty app home before the app starts, e.g. to seed a large ledger into
   * `<home>/memory/sessions.db`. A spec sets it with `test.use({ prepareHome: async ({}, use) => use(fn) })`.
   */
  prepareHome: ((home: string) => void | Promise<void>) | undefined;
  /** Extra environment for the host (e.g. OMNI_CONSENT_TIMEOUT), set with `test.use({ hostEnv: { … } })`. */
  hostEnv: Record<string, string>;
}

export const test = base.extend<{ omni: OmniApp } & OmniOptions, { webBrowser: () => Promise<Browser> }>({
  prepareHome: [undefined, { option: true }],
  hostEnv: [{}, { option: true }],
  // One Chromium per worker, launched on first use (never in Electron mode), with the config's launchOptions: a
  // launch and close per test cost more than many tests (docs/performance.md), and a fresh context per test
  // isolates them as well.
  webBrowser: [
    async ({ playwright, launchOptions }, use) => {
      let browser: Promise<Browser> | undefined;
      await use(() => (browser ??= playwright.chromium.launch(launchOptions)));
      if (browser) await (await browser).close();
    },
    { scope: 'worker' },
  ],
  omni: async ({ prepareHome, hostEnv: extraHostEnv, webBrowser }, use, testInfo) => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-')));
    const home = join(tmp, 'home');
    const scratch = join(tmp, 'workspaces');
    const userHome = join(tmp, 'user');
    mkdirSync(home);
    mkdirSync(scratch);
    mkdirSync(userHome);
    await prepareHome?.(home);
    // Terminal shells read the user's dotfiles; a developer's ~/.bashrc (pyenv, nvm, ...) can take many seconds,
    // so the host and its shells get an empty home of their own.
    const hostEnv: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) hostEnv[key] = value;
    Object.assign(hostEnv, extraHostEnv, { HOME: userHome, OMNI_HOME: home });
    const pageErrors: string[] = [];
    const newWorkspace = (name: string): string => {
      const dir = join(scratch, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };

    let electronApp: ElectronApplication | undefined;
    let context: BrowserContext | undefined;
    let host: HostProcess | undefined;
    let app: OmniApp;

    if (electronBinaryExists()) {
      electronApp = await _electron.launch({ args: [join(root, 'dist/electron/main.js')], cwd: root, env: hostEnv });
      const page = await electronApp.firstWindow();
      await pinDomRenderer(page);
      app = {
        mode: 'electron',
        page,
        home,
        scratch,
        newWorkspace,
        // The Electron main owns the host process and restarts it; the status bar tells us its pid.
        async restartHost() {
          const pid = Number(await page.getByTestId('connection-status').getAttribute('data-host-pid'));
          if (!pid) throw new Error('the status bar does not show the host pid');
          process.kill(pid, 'SIGKILL');
        },
        // The app's page may not read the clipboard (windowSecurity.ts refuses it); the main process can.
        readClipboard: () => electronApp!.evaluate(({ clipboard }) => clipboard.readText()),
      };
    } else {
      const port = await freePort();
      // The host starts while the page's context is made: neither needs the other until the page opens.
      [host, context] = await Promise.all([
        startHost(port, home, hostEnv),
        webBrowser().then((browser) => browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })),
      ]);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
      const page = await context.newPage();
      await pinDomRenderer(page);
      await page.goto(host.url);
      app = {
        mode: 'web',
        page,
        home,
        scratch,
        newWorkspace,
        async restartHost() {
          await stopHost(host!, true);
          host = await startHost(port, home, hostEnv);
        },
        readClipboard: () => page.evaluate(() => navigator.clipboard.readText()),
      };
    }

    app.page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    await use(app);

    if (host && testInfo.status !== testInfo.expectedStatus) await testInfo.attach('host-output', { body: host.output() });
    await context?.close();
    await electronApp?.close();
    if (host) await stopHost(host, false);
    rmSync(tmp, { recursive: true, force: true });
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
  },
});

export { expect };
