import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Browser tests in Debian's Chromium against the real built server (client and API on one origin)
 * on a throwaway SQLite database. The runner sets E2E_DATA_DIR once; workers inherit it.
 * E2E_PORT and E2E_CLIENT_DIST (a client build elsewhere) let several runs share the machine.
 */
const port = Number(process.env.E2E_PORT ?? 4310);
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'portal-browser-'));
process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: join(repoRoot, 'client/test-results'),
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node ${join(repoRoot, 'server/dist/server/src/main.js')}`,
    url: `${process.env.E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: process.env.E2E_BASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAIL: 'admin@portal.test',
      ADMIN_PASSWORD: 'admin-password-1',
      JWT_SECRET: 'browser-tests-secret-browser-tests-secret-0123456789',
      CLIENT_DIST: process.env.E2E_CLIENT_DIST ?? join(repoRoot, 'client/dist'),
      THROTTLE_REGISTRATIONS_PER_IP: '10000',
      THROTTLE_LOGIN_FAILURES_PER_IP: '10000',
      THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '10000',
      LOG_LEVEL: 'warn',
    },
  },
});
