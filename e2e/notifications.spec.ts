import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_CUSTOMER, demoMoneyTest as test, expect, fromOurPages, mailedText, newCustomer, tabTo } from './support/fixtures';

// Issue 14's notifications: money from the other demo customer shows on the bell, the count goes
// down as the customer reads them, and the preferences are saved. The receiver is a customer made
// for this test, so journeys running beside it (which sign the demo customers in from new devices
// and pay them) cannot change the count it expects.

/** Toasts fade out first: Sonner's rich colours fail axe's contrast check (reported to the lead). */
async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

/** The demo customer pays `to` through the API: the code step, then the transfer with the code mailed for exactly this payment. */
async function demoPays(page: Page, request: APIRequestContext, to: { accountNumber: string }, dollars: number, payee: string) {
  const signIn = await request.post('/api/auth/signin', { headers: fromOurPages(), data: DEMO_CUSTOMER });
  const { token } = ((await signIn.json()) as { data: { token: string } }).data;
  const headers = { authorization: `Bearer ${token}` };
  const body = { amount: dollars, accountType: 'checking', accountNumber: to.accountNumber, to: payee, description: `Gift for ${payee}` };
  const step = await request.post('/api/transaction/transfer', { headers: { ...headers, 'idempotency-key': crypto.randomUUID() }, data: body });
  expect(step.status(), await step.text()).toBe(200);
  // Other journeys may ask for codes for the same demo customer: take the mail that names this payee.
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars).replace('$', '\\$');
  const mail = await mailedText(page, DEMO_CUSTOMER.email, new RegExp(`${amount} from your checking account to ${payee}`));
  const code = mail.match(/\b(\d{6})\b/)?.[1];
  const paid = await request.post('/api/transaction/transfer', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { ...body, paymentPin: code },
  });
  expect(paid.status(), await paid.text()).toBe(201);
}

const unreadOf = async (page: Page) => ((await (await page.request.get('/api/notifications?unread=true')).json()) as { data: { unread: number } }).data.unread;

test('money from the other demo customer shows on the bell, which counts down as the notifications are read', async ({ page, request, checkA11y }) => {
  test.setTimeout(120_000);
  const receiver = await newCustomer(page.request, page, { firstName: 'Noor', lastName: 'Tester' });
  await page.goto('/account/home');
  const bell = (count: number) => page.getByRole('link', { name: `Notifications, ${count} unread` });
  await expect(bell(0)).toBeVisible();

  const payee = `Noor Tester ${Date.now().toString(36)}`;
  await demoPays(page, request, receiver, 12.34, payee);
  await demoPays(page, request, receiver, 5, payee);
  // Delivered by the server in the background (the sealer wakes the job): within seconds.
  await expect.poll(() => unreadOf(page), { timeout: 15_000 }).toBe(2);

  // The bell asks again when the customer moves to another page.
  await page.getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await expect(bell(2)).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveText('2');

  // With the keyboard, to the notifications page.
  await tabTo(page, bell(2));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const items = page.getByTestId('notification');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('$5.00 received');
  await expect(items.nth(1)).toContainText('$12.34 received');
  await expect(items.nth(1)).toContainText('arrived in your checking account from Alex Morgan');
  await checkA11y();
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: test.info().outputPath('notifications-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath('notifications-1280.png'), fullPage: true });

  await page.getByRole('button', { name: 'Mark as read: $12.34 received' }).click();
  await expect(bell(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as read: $12.34 received' })).toHaveCount(0);
  await expect(page.getByText('1 unread', { exact: true })).toBeVisible();

  // Only the unread ones, then all read.
  await page.getByRole('button', { name: 'Unread', exact: true }).click();
  await expect(page).toHaveURL(/\?show=unread$/);
  await expect(items).toHaveCount(1);
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(0)).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
  await expect(page.getByText('No unread notifications.')).toBeVisible();
  expect(await unreadOf(page)).toBe(0);
  await noToasts(page);
  await checkA11y();
});

test('notification preferences are saved per kind, and a bad amount is refused in place', async ({ page, checkA11y }) => {
  await newCustomer(page.request, page, { firstName: 'Pia', lastName: 'Tester' });
  await page.goto('/account/notifications');
  const form = page.getByRole('form', { name: 'Notification preferences' });
  const received = form.getByRole('group', { name: 'Money received' });
  const below = form.getByRole('group', { name: 'Balance below an amount' });
  const device = form.getByRole('group', { name: 'Sign-in from a new device' });
  await expect(received.getByLabel('In the app')).toBeChecked();
  await expect(received.getByLabel('By email')).not.toBeChecked();
  await expect(below.getByLabel('When below (USD)')).toHaveValue('100.00');
  // The new-device alert is shown on and cannot be changed.
  await expect(device.getByLabel('By email (always on)')).toBeChecked();
  await expect(device.getByLabel('By email (always on)')).toBeDisabled();
  await checkA11y();

  await below.getByLabel('When below (USD)').fill('12.345');
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await expect(form.getByRole('alert')).toHaveText('Amount can have at most 2 decimal places');
  await expect(below.getByLabel('When below (USD)')).toHaveAttribute('aria-invalid', 'true');

  await received.getByLabel('By email').check();
  await received.getByLabel('In the app').uncheck();
  await below.getByLabel('When below (USD)').fill('250');
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await expect(form.getByRole('status')).toHaveText('Notification preferences saved');

  await page.reload();
  const saved = page.getByRole('form', { name: 'Notification preferences' });
  await expect(saved.getByRole('group', { name: 'Money received' }).getByLabel('By email')).toBeChecked();
  await expect(saved.getByRole('group', { name: 'Money received' }).getByLabel('In the app')).not.toBeChecked();
  await expect(saved.getByRole('group', { name: 'Balance below an amount' }).getByLabel('When below (USD)')).toHaveValue('250.00');
  const stored = (await (await page.request.get('/api/notifications/preferences')).json()) as { data: Record<string, unknown> };
  expect(stored.data.money_received).toEqual({ inApp: false, email: true, amount: null, locked: false });
  expect(stored.data.balance_below).toEqual({ inApp: true, email: false, amount: 250, locked: false });
  await noToasts(page);
  await checkA11y();
});
