#!/usr/bin/env node
// `npm run test:electron`: the Playwright end-to-end suite (e2e/*.spec.ts) against the real Electron app, where
// Electron can run. e2e/fixtures.ts launches Electron (Playwright's `_electron.launch` on dist/electron/main.js)
// whenever e2e/electronBinary.ts finds the binary; this script checks the same thing the same way first, so it
// never runs the suite in Chromium and calls that an Electron run.
//
// Where Electron cannot run (its binary was never downloaded, as on this project's build machines, or there is no
// display), it says why and exits 0 having run nothing: `npm test` already ran the same suite in Chromium over the
// WebSocket transport, and test/electron-main runs the Electron shell against a stand-in of the electron module.
//
// Where it can: builds dist/ (scripts/build.mjs), then runs Playwright; e2e/globalSetup.ts builds the native
// modules for Electron's ABI first (scripts/electron-native.mjs). The exit code is Playwright's.
//
// Never `require('electron')` here: requiring the package starts a download when the binary is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whether the e2e fixture would launch Electron, and if not, why. The binary check is e2e/electronBinary.ts's
 * (node_modules/electron/path.txt naming a file under node_modules/electron/dist/); a Linux desktop also needs a
 * display.
 */
export function electronAvailability(root = projectRoot, env = process.env, platform = process.platform) {
  const packageDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(packageDir, 'package.json'))) {
    return { available: false, why: 'the electron package is not installed (run `npm install`)' };
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      available: false,
      why: "its binary was never downloaded: node_modules/electron/path.txt is missing, so the electron package's postinstall download failed or was skipped",
    };
  }
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { available: false, why: `its binary ${binary} is missing` };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { available: false, binary, why: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset; try `xvfb-run -a npm run test:electron`)' };
  }
  return { available: true, binary };
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, stdio: 'inherit' });
  return result.status ?? 1;
}

function main() {
  const electron = electronAvailability();
  if (!electron.available) {
    console.log(
      `Electron is not available on this machine (${electron.why}); the e2e suite ran in Chromium over WebSocket in \`npm test\`; nothing was run under Electron.`,
    );
    return 0;
  }
  console.log(`test:electron: running the e2e suite under Electron (${electron.binary})`);
  const built = run(['scripts/build.mjs']);
  if (built !== 0) return built;
  return run(['node_modules/@playwright/test/cli.js', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exit(main());
