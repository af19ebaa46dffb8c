import type { Page } from '@playwright/test';
import { ADMIN, DEMO_CUSTOMER_2, expect, staffSignInByApi, test, uniqueEmail, fromOurPages, approvedStaffCall } from './support/fixtures';

// Every signed-in page at a phone's and a laptop's width: it renders its own heading, nothing
// scrolls sideways, axe finds nothing, and no console error or failed request happens.
const accountPaths = [
  '/account/home',
  '/account/transactions',
  '/account/transfers',
  '/account/transfer',
  '/account/internal_transfer',
  '/account/domestic_transfer',
  '/account/loans',
  '/account/loans/apply',
  '/account/loans/documents',
  '/account/cards',
  '/account/support',
  '/account/info',
  '/account/profile',
  '/account/settings',
  '/account/update-account',
  '/account/update-password',
  '/account/beneficiaries',
  '/account/kyc-verification',
  '/account/deposit',
  '/account/deposit/crypto',
  '/account/security',
  '/account/statements',
  '/account/bulk-payments',
  '/account/standing-orders',
  '/account/receive',
  '/account/requests',
];

const adminPaths = (userId: string) => [
  '/admin/dashboard',
  '/admin/users',
  `/admin/users/${userId}`,
  `/admin/users/edit/${userId}`,
  `/admin/users/account/${userId}`,
  `/admin/transactions/${userId}`,
  '/admin/transactions/add-transactions',
  '/admin/journal',
  '/admin/reports',
  '/admin/contacts',
  '/admin/audit',
  '/admin/ledger',
  '/admin/kyc',
  '/admin/loans',
  '/admin/cards',
  '/admin/jobs',
  '/admin/security',
];

async function signInByApi(page: Page, user: { email: string; password: string }) {
  const response = await page.request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  expect(response.status()).toBe(200);
  return (await response.json()).data.user as { _id: string };
}

async function checkPage(page: Page, path: string, checkA11y: (page?: Page) => Promise<void>) {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading\.\.\.$/ })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  await checkA11y();
}

for (const width of [375, 1280]) {
  test(`customer pages at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await signInByApi(page, DEMO_CUSTOMER_2);
    for (const path of accountPaths) await checkPage(page, path, checkA11y);
    if (width < 1024) {
      // The phone's menu: Escape closes it and leaves focus on the button that opened it, from the
      // button or from a link in it.
      const opener = page.getByRole('button', { name: 'Open menu' });
      const menu = page.locator('#shell-menu').getByRole('navigation', { name: 'Account' });
      await opener.click();
      await expect(menu).toBeVisible();
      await expect(page.getByRole('button', { name: 'Close menu' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(opener).toBeFocused();
      await page.keyboard.press('Enter');
      await menu.getByRole('link').first().focus();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(opener).toBeFocused();
    }
  });

  test(`back-office pages at ${width} px`, async ({ page, checkA11y, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    // A customer of this test's own, with history, so the back office's tables have rows to lay
    // out (and no other journey's "newest row" changes under it).
    const email = uniqueEmail('layout');
    const signUp = await request.post('/api/auth/signup', {
      data: {
        firstName: 'Layout',
        lastName: 'Check',
        email,
        address: '1 Grid Street',
        dateOfBirth: '1985-06-01',
        sex: 'Other',
        countryCode: '1',
        phone: '+1 202 555 0111',
        occupation: 'private',
        annualIncomeRange: '$700.00 - $1,000.00',
        accountType: 'Checking',
        password: 'Layout-Check-2026',
        confirmPassword: 'Layout-Check-2026',
      },
    });
    expect(signUp.status()).toBe(201);
    // Sign-up names no user (no account enumeration): the customer's own sign-in does.
    const signIn = await request.post('/api/auth/signin', { headers: fromOurPages(), data: { email, password: 'Layout-Check-2026' } });
    expect(signIn.status()).toBe(200);
    const customerId = (await signIn.json()).data.user._id as string;
    await staffSignInByApi(page, ADMIN);
    const credit = await page.request.post(`/api/transaction/admin/${customerId}`, {
      data: {
        amount: 5,
        transactionType: 'credit',
        date: new Date().toISOString().slice(0, 10),
        description: 'Layout check credit',
        reason: 'Test data for the layout check',
        account: 'checking',
      },
      headers: { 'Idempotency-Key': `layout-${width}-${Date.now()}`, ...fromOurPages() },
    });
    expect((await approvedStaffCall(credit)).status).toBe(201);
    for (const path of adminPaths(customerId)) await checkPage(page, path, checkA11y);
  });
}
