/**
 * Browser tests: one production build (npm run build, done by `npm run test:browser`) and one
 * server on a fresh in-memory database, shared by every test; Debian's Chromium.
 */
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);

export default defineConfig({
  testDir: './tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    // on the node that runs Playwright (npm test's: the project's own), not whatever `node` is on PATH
    command: `${JSON.stringify(process.execPath)} --import tsx src/server/main.ts`,
    url: `http://127.0.0.1:${PORT}/login/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT), ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}), DATA_DIR: 'memory://', LOG_LEVEL: 'warn', SEED_TRAFFIC_DAYS: process.env.SEED_TRAFFIC_DAYS ?? '4', LOG_SMS: '0', SMS_OUTBOX_API: '1', EXTERNAL_SMS_URL: 'https://sms.partner.example/console/', ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}) },
  },
});
