import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TOTP_PERIOD_SECONDS } from '../src/shared/contracts/factors';
import { msUntilStep, STAFF_TOTP_SECRET, staffCode, totpStepAt } from '../tests/support/totp';
import { ADMIN, claimStaffStep, expect, lookAtBothWidths, tabTo, test, waitForHydration } from './support/fixtures';

// The admin's sign-in as the README's quick start tells it (issue 13, ADR 011): email and password
// at /admin/login, then the code `npm run demo:totp` prints, run with the server's environment
// (the suite's server has ADMIN_TOTP_SECRET set to the test staff secret). Done from the keyboard.

const run = promisify(execFile);

/** What `npm run demo:totp` prints for the suite's server's environment: the code and its seconds left. */
async function demoTotp(): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'demo:totp'], {
    env: { ...process.env, ADMIN_TOTP_SECRET: STAFF_TOTP_SECRET, NODE_ENV: 'test' },
    timeout: 60_000,
  });
  return stdout.trim();
}

/**
 * A step this worker may use (claimStaffStep: codes work once and other workers sign the same admin
 * in), begun and with time left to run the command and type its code; a step too near its end is
 * left unused and another one claimed.
 */
async function usableStep(): Promise<number> {
  for (;;) {
    const step = await claimStaffStep();
    await new Promise((resolve) => setTimeout(resolve, msUntilStep(step, new Date()) + 50));
    const msLeft = (step + 1) * TOTP_PERIOD_SECONDS * 1000 - Date.now();
    if (totpStepAt(new Date()) === step && msLeft > 12_000) return step;
  }
}

test('the admin signs in as the README says: password, then the code npm run demo:totp prints', async ({ page, checkA11y }) => {
  // Up to a minute of waiting for a free step, and the command's start on a loaded machine.
  test.setTimeout(150_000);
  await page.goto('/admin/login');
  await waitForHydration(page);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(ADMIN.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');

  // No session yet: the second step, which asks for the app's code.
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect((await page.request.get('/api/admin/dashboard')).status()).toBe(401);
  // The focus moves to the step's heading, as after a page change.
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeFocused();
  const field = page.getByLabel('Authenticator code');
  await lookAtBothWidths(page, 'staff-second-step', checkA11y);

  const step = await usableStep();
  const printed = await demoTotp();
  const code = /^(\d{6})\s+\(valid for (\d+) more seconds?; each code signs in once\)$/.exec(printed);
  expect(code, `npm run demo:totp printed: ${printed}`).not.toBeNull();
  // It is the code the admin's app shows now (computed here from the same secret, independently).
  expect(code![1]).toBe(staffCode(step));
  await tabTo(page, field);
  await page.keyboard.type(code![1]!);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'Users' })).toBeVisible();
  expect((await page.request.get('/api/admin/dashboard')).status()).toBe(200);
});
