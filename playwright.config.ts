import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { sitePort } from './tests/e2e/site-port.ts';

/**
 * Browser tests run against the production build, one site with a fresh embedded database per worker
 * (tests/e2e/global-setup.ts). Test files run side by side; the tests of one file run in order.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // The longest journeys take half a minute on a quiet two-core machine, and twice that while it is busy.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two sites side by side keep a two-core machine busy while one of them waits; more cores, more workers.
  workers: Number(process.env.E2E_WORKERS ?? Math.max(2, Math.floor(availableParallelism() / 2))),
  globalSetup: './tests/e2e/global-setup.ts',
  retries: 0,
  // The JSON report feeds the totals line of `npm test`.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    // Read in each worker, where it names that worker's own site.
    baseURL: `http://localhost:${sitePort()}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 }, channel: undefined } },
    // Phones get their own layout (tab bar, folded filters, sign-up page instead of the modal, touch swipes):
    // the tests of what looks or works differently there are tagged @phone and run at 375 px too.
    { name: 'mobile', grep: /@phone/, use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
});
