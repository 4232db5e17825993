import { defineConfig } from '@playwright/test';
import chromiumFlags from '../scripts/chromiumFlags.json';

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
  // Two workers on a 2-core machine: one test's host and page mostly wait on the other's (the e2e phase used about
  // 0.7 of a core with one worker). Two passed all 49 tests at load averages of 15-25 (docs/performance.md, "Test
  // suite"); an earlier tree failed 11 of 44 that way. OMNI_E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.OMNI_E2E_WORKERS ?? 2) || 2,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    actionTimeout: 10_000,
    trace: process.env.OMNI_E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    // The web specs' Chromium (Debian's), launched once per worker by Playwright's `browser` fixture; each test gets
    // a fresh context (its own storage and permissions). The flags are shared with the bench. Its headless mode is
    // the full browser:
    // each new context opens a window whose omnibox popup is a WebUI page in a renderer of its own, which no test
    // looks at; the flags turn it off, which cuts what a page load costs Chromium by about two fifths
    // (docs/performance.md, "End to end").
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: chromiumFlags,
    },
  },
});
