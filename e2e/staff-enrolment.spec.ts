import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/server/db/embedded';
import { staffCode, totpStepAt } from '../tests/support/totp';
import { expect, lookAtBothWidths, test } from './support/fixtures';

// Staff must have a second factor (issue 13, ADR 011). A bank started for real (DEMO_MODE=false)
// without ADMIN_TOTP_SECRET creates its first admin with none: that admin's first sign-in reaches
// the enrolment page and nothing else until a factor is set up. The suite's own server has its
// admin enrolled, so this journey starts a bank of its own (same build, its own database).

const STAFF = { email: 'ops@bank.example', password: 'Enrol-Staff-2026!' };

let server: ChildProcess | undefined;
let base = '';
let banner = '';
let directory = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-e2e-enrol-'));
  const { ADMIN_TOTP_SECRET: _ignored, ...environment } = process.env;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: directory,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      RATE_LIMITS: 'false',
      DEMO_MODE: 'false',
      ADMIN_EMAIL: STAFF.email,
      ADMIN_PASSWORD: STAFF.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (banner += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (banner += chunk.toString()));
  for (let waitedMs = 0; !banner.includes('Sign-ins:'); waitedMs += 200) {
    if (server.exitCode !== null || waitedMs > 100_000) throw new Error(`the bank did not start:\n${banner}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 25_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

test('the first admin of a bank without ADMIN_TOTP_SECRET enrols at first sign-in before reaching anything else', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  expect(banner).toContain('second factor: none yet; the first sign-in sets one up');

  await page.goto(`${base}/admin/login`);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  // This bank runs with DEMO_MODE=false on the suite's build (made in demo mode): no demo notice.
  await expect(page.getByText('Demo bank: no real money')).toBeHidden();
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Set up a second factor to continue.' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Back office' }).first();
  await expect(nav.getByRole('link')).toHaveText(['Security']);
  await lookAtBothWidths(page, 'staff-enrolment', checkA11y);

  // Nothing else opens: another page sends back here, and the API refuses the staff calls.
  await page.goto(`${base}/admin/users`);
  await expect(page).toHaveURL(/\/admin\/security$/);
  const refused = await page.request.get(`${base}/api/admin/dashboard`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'second_factor_required' });

  // An authenticator app, set up from its key.
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  await page.getByLabel('Code from the app').fill(staffCode(totpStepAt(new Date()), secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('heading', { name: 'Save your recovery codes now' })).toBeVisible();
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Done' }).click();
  // Staff keep a factor: the only one cannot be removed.
  await expect(page.getByText('Staff must keep a second factor: add a passkey before removing the app.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove authenticator app' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(page.getByText('Demo bank: no real money')).toBeHidden();
  expect((await page.request.get(`${base}/api/admin/dashboard`)).status()).toBe(200);
});
