#!/usr/bin/env node
// `npm start`: the desktop app where Electron can run, the headless host plus a Chromium app window elsewhere.
//
//   1. Build dist/ if it is missing (npm ci normally did that already, through `prepare`).
//   2. Electron: find its binary WITHOUT requiring the electron package (that would start a download). If it is
//      missing, try the download once (node_modules/electron/install.js, at most 60 s; never in CI or with
//      OMNI_NO_ELECTRON_DOWNLOAD=1). With a binary and a display, make sure the native modules exist for
//      Electron's ABI in their separate folder (scripts/electron-native.mjs) and launch Electron.
//   3. Otherwise headless: `omni serve`, and open the printed URL in an installed Chromium/Chrome in app mode
//      (its own profile under the app home) when there is a display, or print the URL.
//
//   npm start -- [--port N] [--home DIR] [--headless] [--no-browser]
//
// SIGINT and SIGTERM are passed on to the children; the exit code is that of Electron or the server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as osConstants, homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectronNativeModules, electronVersion, findElectronBinary } from './electron-native.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** A browser that exits sooner than this handed the URL to an instance already running (or failed to start). */
const BROWSER_HANDOFF_MS = 5_000;

const log = (message) => console.log(`start: ${message}`);

const USAGE = `Usage: npm start -- [--port N] [--home DIR] [--headless] [--no-browser]
  --port N      port for the headless server (default: a free one)
  --home DIR    app home (default: $OMNI_HOME, else Electron's userData / ~/.omniscient-shell)
  --headless    do not use Electron even if it is installed
  --no-browser  headless: print the URL instead of opening a browser window`;

function parseArgs(argv) {
  const options = { port: undefined, home: undefined, headless: process.env.OMNI_HEADLESS === '1', browser: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port':
        options.port = value();
        if (!/^\d{1,5}$/.test(options.port ?? '')) throw new Error(`--port needs a number, not "${options.port}"`);
        break;
      case '--home':
        options.home = value();
        if (!options.home) throw new Error('--home needs a folder');
        break;
      case '--headless':
        options.headless = true;
        break;
      case '--no-browser':
        options.browser = false;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option "${argv[i]}"\n${USAGE}`);
    }
  }
  return options;
}

const isTruthy = (value) => Boolean(value) && value !== '0' && value !== 'false';
const hasDisplay = () => process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);

/** Children to pass SIGINT/SIGTERM on to. */
const children = new Set();
function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (children.size === 0) process.exit(130);
    for (const child of children) child.kill(signal);
  });
}

function ensureBuilt() {
  const needed = ['dist/cli/omni.cjs', 'dist/renderer/index.html', 'dist/electron/main.js', 'dist/electron/preload.js', 'dist/electron/hostProcess.js'];
  const missing = needed.filter((file) => !existsSync(join(root, file)));
  if (missing.length === 0) return;
  log(`building (missing ${missing.join(', ')})`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('start: the build failed; fix the errors above and run `npm start` again.');
    process.exit(result.status ?? 1);
  }
}

/** Runs node_modules/electron/install.js once, killing it (and its process group) after DOWNLOAD_TIMEOUT_MS. */
function tryElectronDownload() {
  if (isTruthy(process.env.CI) || process.env.OMNI_NO_ELECTRON_DOWNLOAD === '1') {
    log('not downloading Electron (CI or OMNI_NO_ELECTRON_DOWNLOAD=1).');
    return Promise.resolve(false);
  }
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return Promise.resolve(false);
  log(`the Electron binary is missing; trying to download it (at most ${DOWNLOAD_TIMEOUT_MS / 1000} s)...`);
  return new Promise((resolvePromise) => {
    const child = track(spawn(process.execPath, [installer], { cwd: root, stdio: 'inherit', detached: process.platform !== 'win32' }));
    const timer = setTimeout(() => {
      log('the download timed out.');
      try {
        if (process.platform === 'win32') child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, DOWNLOAD_TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolvePromise(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) log('the Electron download failed.');
      resolvePromise(code === 0);
    });
  });
}

function runElectron(binary, nativeModulesDir) {
  log(`launching Electron ${electronVersion(root)}`);
  const env = { ...process.env, OMNI_NATIVE_MODULES_DIR: nativeModulesDir };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = track(spawn(binary, [root], { cwd: root, stdio: 'inherit', env }));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (osConstants.signals[signal] ?? 0)));
}

function appHome(options) {
  return resolve(options.home ?? process.env.OMNI_HOME ?? join(homedir(), '.omniscient-shell'));
}

function isExecutableFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** An installed Chromium-family browser: $OMNI_BROWSER, then well-known names on PATH and install folders, then Playwright's. */
function findChromium() {
  if (process.env.OMNI_BROWSER) return isExecutableFile(process.env.OMNI_BROWSER) ? process.env.OMNI_BROWSER : undefined;
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'brave-browser'];
  const extension = process.platform === 'win32' ? '.exe' : '';
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      if (isExecutableFile(join(dir, name + extension))) return join(dir, name + extension);
    }
  }
  const wellKnown = {
    darwin: [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ],
    win32: [
      join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google\\Chrome\\Application\\chrome.exe'),
      join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Microsoft\\Edge\\Application\\msedge.exe'),
      join(process.env.LOCALAPPDATA ?? '', 'Google\\Chrome\\Application\\chrome.exe'),
    ],
  }[process.platform] ?? [];
  const found = wellKnown.find(isExecutableFile);
  if (found) return found;
  try {
    const playwright = createRequire(join(root, 'package.json'))('playwright-core');
    const path = playwright.chromium.executablePath();
    return isExecutableFile(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function printUrl(url, why) {
  console.log(
    [
      '',
      `  Omniscient Shell is running headless${why ? ` (${why})` : ''}.`,
      `  Open this address in a Chromium-based browser:`,
      '',
      `    ${url}`,
      '',
      '  Stop it with Ctrl+C.',
      '',
    ].join('\n'),
  );
}

/** Opens `url` as an app window of its own (no tabs, no address bar) in a profile that belongs to the app. */
function openAppWindow(browser, url, home, server) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const browserArgs = [`--app=${url}`, `--user-data-dir=${join(home, 'browser-profile')}`, '--no-first-run', '--no-default-browser-check'];
  if (isRoot) {
    // Chromium refuses to run as root with its sandbox on, and the page shows agent output: keep the sandbox
    // unless the user explicitly accepts the risk.
    if (process.env.OMNI_BROWSER_NO_SANDBOX !== '1') {
      printUrl(url, 'Chromium will not run as root with its sandbox; set OMNI_BROWSER_NO_SANDBOX=1 to open it without');
      return;
    }
    browserArgs.push('--no-sandbox');
  }
  mkdirSync(join(home, 'browser-profile'), { recursive: true, mode: 0o700 });
  log(`opening ${browser} in app mode`);
  const started = Date.now();
  const child = track(spawn(browser, browserArgs, { stdio: 'ignore' }));
  child.on('error', (error) => printUrl(url, `could not start ${browser}: ${error.message}`));
  child.on('exit', (code) => {
    if (Date.now() - started < BROWSER_HANDOFF_MS) {
      // Handed over to a browser that was already open, or failed: the server stays up for that window.
      printUrl(url, code === 0 ? 'the window opened in a browser that was already running' : `${browser} exited with code ${code}`);
      return;
    }
    log('the app window was closed; stopping the server.');
    server.kill('SIGTERM');
  });
}

function runHeadless(options, why) {
  log(`headless: ${why}`);
  const serveArgs = [join(root, 'bin', 'omni.mjs'), 'serve'];
  if (options.port !== undefined) serveArgs.push('--port', options.port);
  if (options.home !== undefined) serveArgs.push('--home', options.home);
  const server = track(spawn(process.execPath, serveArgs, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }));
  let buffered = '';
  let opened = false;
  server.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (opened) return;
    buffered += chunk;
    const match = /ready at (http:\/\/\S+)/.exec(buffered);
    if (!match) return;
    opened = true;
    const url = match[1];
    const browser = options.browser && hasDisplay() ? findChromium() : undefined;
    if (browser) openAppWindow(browser, url, appHome(options), server);
    else printUrl(url, !options.browser ? '--no-browser' : !hasDisplay() ? 'no display' : 'no Chromium or Chrome found');
  });
  server.on('exit', (code, signal) => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
  });
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`start: ${error.message}`);
    process.exit(2);
  }
  ensureBuilt();
  if (options.headless) return runHeadless(options, '--headless');

  let binary = findElectronBinary(root);
  if (!binary && (await tryElectronDownload())) binary = findElectronBinary(root);
  if (!binary) return runHeadless(options, `no Electron ${electronVersion(root)} binary`);
  if (!hasDisplay()) return runHeadless(options, 'Electron is installed but there is no display (DISPLAY / WAYLAND_DISPLAY)');

  const natives = await buildElectronNativeModules({ projectRoot: root });
  if (natives.code !== 0) {
    console.error(`start: ${natives.reason}`);
    return runHeadless(options, 'the native modules could not be built for Electron');
  }
  if (options.home) process.env.OMNI_HOME = resolve(options.home);
  runElectron(binary, natives.dir);
}

await main();
