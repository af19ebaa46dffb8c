import { defineConfig } from '@playwright/test';
import { STAFF_TOTP_SECRET } from './tests/support/totp';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real app
// (built web + API + embedded PostgreSQL) started fresh for the run. The journeys sign up many
// customers from one address within a minute, so rate limits are off here; the API tests cover them.
// The bank is reached as localhost, not 127.0.0.1: browsers refuse WebAuthn (passkeys) on an IP
// address, and PUBLIC_URL's host is the passkeys' relying party. The first admin enrols the test
// staff secret (ADMIN_TOTP_SECRET): signInAs computes its codes.
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = `/tmp/ledgerline-e2e-${port}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `rm -rf ${dataDir} && exec npx tsx src/server/server.ts`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      RATE_LIMITS: 'false',
      ADMIN_TOTP_SECRET: STAFF_TOTP_SECRET,
    },
  },
});
