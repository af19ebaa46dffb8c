import type { Page } from '@playwright/test';
import type { AppContext } from '../src/server/context';
import { createDatabase } from '../src/server/db/database';
import { runningEmbeddedUrl } from '../src/server/db/embedded';
import { completeDueRecoveries } from '../src/server/recovery/service';
import { ACCOUNT_RECOVERY_DELAY_MS } from '../src/shared/contracts/recovery';
import { staffCode, totpStepAt } from '../tests/support/totp';
import { ADMIN, expect, fromOurPages, lookAt, mailedText, newCustomer, signInAs, staffSignInByApi, tabTo, test } from './support/fixtures';

// ADR 025 in the browser (issue 13): removing a factor asks for a fresh one; staff start a support
// recovery on the user page with the identity check, the job runs as if 24 hours had passed (its
// function driven with a clock, on the running server's database), and the customer then signs in
// with the password alone; the mailed link's page cancels one. 375 and 1280 px, axe, keyboard.

const dataDir = `/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`;

/** The authenticator app set up through the API with the page's session; answers its secret and the step its confirmation spent. */
async function enrolApp(page: Page): Promise<{ secret: string; usedStep: number }> {
  const enrol = await page.request.post('/api/auth/totp/enrol', { headers: fromOurPages() });
  const { secret } = ((await enrol.json()) as { data: { secret: string } }).data;
  const usedStep = totpStepAt(new Date());
  expect((await page.request.post('/api/auth/totp/confirm', { headers: fromOurPages(), data: { code: staffCode(usedStep, secret) } })).status()).toBe(201);
  return { secret, usedStep };
}

/** The recovery job's run 24 hours and a minute from now, on the running server's database (as the job runner would run it then). */
async function runRecoveriesADayLater(): Promise<number> {
  const url = runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const database = createDatabase(url, { max: 2 });
  try {
    const later = new Date(Date.now() + ACCOUNT_RECOVERY_DELAY_MS + 60_000);
    const origin = new URL(test.info().project.use.baseURL ?? 'http://localhost').origin;
    const ctx = {
      db: database.db,
      config: { publicUrl: origin, bankName: 'Ledgerline', mailFrom: 'Ledgerline <no-reply@ledgerline.example>' },
      clock: { now: () => later },
      log: { info: () => undefined },
    } as unknown as AppContext;
    return await completeDueRecoveries(ctx);
  } finally {
    await database.close();
  }
}

for (const width of [375, 1280]) {
  test(`removing the authenticator app asks for a code from it (${width} px)`, async ({ page, request, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const customer = await newCustomer(request, page, { firstName: 'Quinn', lastName: 'Recovery', prefix: 'recovery' });
    await signInAs(page, customer);
    await expect(page).toHaveURL(/\/account\/home$/);
    const { secret, usedStep } = await enrolApp(page);

    await page.goto('/account/security');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const removeButton = page.getByRole('button', { name: 'Remove authenticator app' });
    await tabTo(page, removeButton);
    await page.keyboard.press('Enter');
    const codeField = page.getByLabel('Code from your authenticator app');
    await expect(codeField).toBeVisible();
    // Without a code: refused, named on the field; the app stays.
    await page.getByRole('button', { name: 'Yes, remove it' }).click();
    await expect(page.getByText("Confirm it's you with your second factor").first()).toBeVisible();
    await lookAt(page, 'remove-app-needs-code', checkA11y);
    // The code its set-up used is spent: refused.
    await codeField.fill(staffCode(usedStep, secret));
    await page.getByRole('button', { name: 'Yes, remove it' }).click();
    await expect(page.getByText('That second factor was not accepted').first()).toBeVisible();
    // The next code, sent from the keyboard: removed.
    await codeField.fill(staffCode(usedStep + 1, secret));
    await codeField.press('Enter');
    await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
    expect(((await (await page.request.get('/api/auth/factors')).json()) as { data: { totp: boolean } }).data.totp).toBe(false);
    await lookAt(page, 'remove-app-done', checkA11y);
  });
}

for (const width of [375, 1280]) {
  test(`staff start a recovery; a day later the customer signs in with the password alone (${width} px)`, async ({ page, browser, request, checkA11y }) => {
    test.setTimeout(180_000);
    // The customer, who set up an app, then lost it (and the recovery codes).
    const customerContext = await browser.newContext();
    const customerPage = await customerContext.newPage();
    const customer = await newCustomer(request, customerPage, { firstName: 'Morgan', lastName: 'Recovery', prefix: 'recovery' });
    await signInAs(customerPage, customer);
    await expect(customerPage).toHaveURL(/\/account\/home$/);
    await enrolApp(customerPage);
    await customerContext.close();

    // Staff, on the customer's page.
    await page.setViewportSize({ width, height: 900 });
    await staffSignInByApi(page, ADMIN);
    await page.goto(`/admin/users/${customer.id}`);
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const card = page.getByRole('heading', { name: 'Account recovery' });
    await card.scrollIntoViewIfNeeded();
    await expect(page.getByText('No recovery has been started for this customer.')).toBeVisible();
    // The identity check is required.
    await page.getByRole('button', { name: 'Start recovery' }).click();
    await expect(page.getByText('Record how you checked the customer’s identity').first()).toBeVisible();
    const check = page.getByLabel('How you checked their identity');
    await tabTo(page, check);
    await page.keyboard.type('Video call; passport matched the KYC photo; callback to the phone on file');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Pending', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw the recovery' })).toBeVisible();
    await expect(page.getByText('Account recovery started (takes effect in 24 hours)')).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
    await lookAt(page, 'staff-recovery-pending', checkA11y);
    // The customer was told at once, with a link that would cancel it.
    expect(await mailedText(page, customer.email, /cancel-recovery\?token=/)).toContain('account');

    // Before the day has passed the password alone is not enough.
    const early = await request.post('/api/auth/signin', { headers: fromOurPages(), data: { email: customer.email, password: customer.password } });
    expect(((await early.json()) as { data: { secondFactor?: unknown } }).data.secondFactor).toBeDefined();
    // A day later: the job takes it into effect.
    expect(await runRecoveriesADayLater()).toBeGreaterThanOrEqual(1);

    const fresh = await browser.newContext();
    const customerAgain = await fresh.newPage();
    await customerAgain.setViewportSize({ width, height: 900 });
    await signInAs(customerAgain, customer);
    await expect(customerAgain).toHaveURL(/\/account\/home$/);
    await customerAgain.goto('/account/security');
    await expect(customerAgain.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
    await lookAt(customerAgain, 'customer-after-recovery', checkA11y);
    await fresh.close();

    await page.reload();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();
    await expect(page.getByText('Account recovered: second factors removed')).toBeVisible();
  });
}

test('the mailed link cancels a recovery, and the security page showed it pending (375 px)', async ({ page, browser, request, checkA11y }) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(request, page, { firstName: 'Casey', lastName: 'Recovery', prefix: 'recovery' });
  await staffSignInByApi(page, ADMIN);
  const started = await page.request.post(`/api/user/admin/${customer.id}/recovery`, {
    headers: fromOurPages(),
    data: { identityCheck: 'Phone call from an unknown number: asked for a callback' },
  });
  expect(started.status()).toBe(201);

  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  await customerPage.setViewportSize({ width: 375, height: 900 });
  await signInAs(customerPage, customer);
  await expect(customerPage).toHaveURL(/\/account\/home$/);
  await customerPage.goto('/account/security');
  await expect(customerPage.getByRole('heading', { name: 'Account recovery pending' })).toBeVisible();
  await lookAt(customerPage, 'security-recovery-pending', checkA11y);
  await customerContext.close();

  const link = (await mailedText(page, customer.email, /cancel-recovery\?token=/)).match(/(\/cancel-recovery\?token=[A-Za-z0-9_-]+)/)![1]!;
  const linkContext = await browser.newContext();
  const linkPage = await linkContext.newPage();
  await linkPage.setViewportSize({ width: 375, height: 900 });
  await linkPage.goto(link);
  await linkPage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await expect(linkPage.getByRole('heading', { name: 'Cancel the account recovery' })).toBeVisible();
  await lookAt(linkPage, 'cancel-recovery-link', checkA11y);
  const button = linkPage.getByRole('button', { name: 'Cancel the recovery' });
  await tabTo(linkPage, button);
  await linkPage.keyboard.press('Enter');
  await expect(linkPage.getByText('The account recovery was cancelled. Nothing was changed.')).toBeVisible();
  await lookAt(linkPage, 'cancel-recovery-done', checkA11y);
  await linkContext.close();
  const latest = await page.request.get(`/api/user/admin/${customer.id}/recovery`);
  expect(((await latest.json()) as { data: { status: string; cancelledVia: string } }).data).toMatchObject({ status: 'cancelled', cancelledVia: 'link' });
});
