import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3210);

/** Browser tests run against the production build on a fresh embedded database. */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The JSON report feeds the totals line of `npm test`.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 }, channel: undefined } },
    { name: 'mobile', use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://localhost:${PORT}/api/settings.php`,
    timeout: 120_000,
    reuseExistingServer: false,
    // The moderation API is on in browser tests, so they can approve photos as an operator would. Behind the
    // trusted-proxy setting, tests that create many members give each its own address (signup rate limit).
    env: { PORT: String(PORT), OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? 'e2e-operator-token-0123456789', TRUST_PROXY: '1' },
  },
});
