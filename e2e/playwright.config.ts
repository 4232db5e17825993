import { defineConfig } from '@playwright/test';

// The fixture (fixtures.ts) decides what to launch: Electron where its binary exists, else the headless host plus
// Debian's Chromium. Build first (`npm run build`): both run the bundles in dist/.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './globalSetup.ts',
  outputDir: '../test-results',
  // A 2-core machine: one worker keeps terminals and the host responsive enough for stable timings.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    actionTimeout: 10_000,
    trace: 'retain-on-failure',
  },
});
