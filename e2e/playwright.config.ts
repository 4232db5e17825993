import { defineConfig } from '@playwright/test';

// The fixture (fixtures.ts) decides what to launch: Electron where its binary exists, else the headless host plus
// Debian's Chromium. Build first (`npm run build`): both run the bundles in dist/.
//
// Tracing is opt-in: Playwright's tracing slows the app's WebSocket streams 3–4× (docs/performance.md), and
// 'retain-on-failure' records every test to keep the failures' traces. OMNI_E2E_TRACE=1 turns it on for a run.
//
// Figures for what follows: docs/performance.md#test-suite.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './globalSetup.ts',
  outputDir: '../test-results',
  // A 2-core machine: one worker keeps terminals and the host responsive enough for stable timings (two workers
  // failed 11 of 44 tests on timeouts on a loaded machine; `--workers 2` tries it again on an idle one).
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    actionTimeout: 10_000,
    trace: process.env.OMNI_E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    // The web specs' Chromium (Debian's), launched once per worker by Playwright's `browser` fixture; each test gets
    // a fresh context (its own storage and permissions).
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
