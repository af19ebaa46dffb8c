import type { Page } from '@playwright/test';
import pg from 'pg';
import { runningEmbeddedUrl } from '../src/server/db/embedded';
import { ADMIN, approvedStaffCall, expect, fromOurPages, lastMailId, mailedCode, newCustomer, staffBearerToken, tabTo, test } from './support/fixtures';

// Standing orders in the browser (issue 14): a customer sets one up to another customer with the
// IMS code emailed for exactly that mandate, sees it listed with its next run date, and cancels it;
// at a phone's and a laptop's width, axe clean, the form driven with the keyboard. The payments
// themselves are the job's (tests/api/standing-orders.test.ts runs a simulated month); the last
// journey has the job pay one due today and finds it labelled in the payer's history.

/** Toasts fade out first: Sonner's rich colours fail axe's contrast check (as the other journeys do). */
async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

/** A date some days from today (UTC: the test server's BANK_TIMEZONE) as the date field takes it. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

for (const width of [375, 1280]) {
  test(`set up a standing order with the emailed code, see it listed, and cancel it (${width} px)`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const payee = await newCustomer(page.request, page, { firstName: 'Payee', lastName: 'Tester' });
    const payer = await newCustomer(page.request, page, { firstName: 'Payer', lastName: 'Tester' });
    const last4 = payee.accountNumber.slice(-4);

    // From the transfers page, as a customer finds it.
    await page.goto('/account/transfers');
    await page.getByRole('link', { name: /Standing Orders/ }).click();
    await expect(page).toHaveURL(/\/account\/standing-orders$/);
    await expect(page.getByRole('heading', { name: 'Standing orders', level: 1 })).toBeVisible();
    await expect(page.getByText('You have no standing orders yet.')).toBeVisible();
    await checkA11y();

    // The form with the keyboard: the contract's messages first, then a valid monthly order.
    const accountNumber = page.getByLabel('Account number');
    await tabTo(page, accountNumber);
    await page.keyboard.type(payee.accountNumber);
    await page.keyboard.press('Tab');
    await page.keyboard.type('25');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Please fill all fields' })).toBeVisible();
    // Whose account it is: asked, so the bank can check it against the holder (ADR 029).
    await expect(page.getByText("Please enter the recipient's name")).toBeVisible();
    await page.getByLabel('Recipient name').fill('Payee Tester');
    await page.getByLabel('Description').fill('Rent share');
    await page.getByLabel('First payment').fill(daysFromToday(3));
    // The contract's limits on the count, named as the form labels the field.
    const count = page.getByLabel('Number of payments (optional)');
    await count.fill('0');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Number of payments must be at least 1' })).toBeVisible();
    await count.fill('521');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Number of payments must be at most 520' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: /\bcount\b/ })).toHaveCount(0);
    await count.fill('6');
    const after = await lastMailId(page);
    await tabTo(page, page.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');

    // The code step: the mandate's summary, and the code emailed for exactly it.
    const confirm = page.getByRole('form', { name: 'Confirm standing order' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(`Payee Tester (account ending ${last4})`);
    await expect(confirm.getByRole('status').filter({ hasText: "The name matches the account holder's name." })).toBeVisible();
    await expect(confirm).toContainText('$25.00');
    await expect(confirm).toContainText('Every month');
    await noToasts(page);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`standing-order-code-${width}.png`), fullPage: true });
    const code = await mailedCode(page, payer.email, after);
    await tabTo(page, page.getByLabel('IMS code'));
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Standing order set up').first()).toBeVisible();

    // Listed with its next run date and no result yet; the form is ready for another.
    const order = page.getByTestId('standing-order');
    await expect(order).toHaveCount(1);
    await expect(order).toContainText(`$25.00 to Payee Tester (account ending ${last4})`);
    await expect(order).toContainText('Rent share');
    await expect(order).toContainText('Active');
    await expect(order).toContainText('No payment yet');
    const nextRun = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${daysFromToday(3)}T00:00:00Z`));
    await expect(order.getByText('Next run')).toBeVisible();
    await expect(order).toContainText(nextRun);
    await expect(page.getByLabel('Account number')).toHaveValue('');
    await noToasts(page);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`standing-orders-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Cancel with the keyboard, after saying yes. Focus never falls to the page: the question that
    // replaces the button takes it, "Keep it" gives it back to the button, and once cancelled the
    // order's title has it.
    const focusOnBody = () => page.evaluate(() => document.activeElement === document.body);
    const cancelButton = page.getByRole('button', { name: `Cancel standing order: $25.00 to Payee Tester (account ending ${last4})` });
    const question = order.getByText('Cancel this standing order? No further payment will be made.');
    await tabTo(page, cancelButton);
    await page.keyboard.press('Enter');
    await expect(question).toBeFocused();
    expect(await focusOnBody()).toBe(false);
    await checkA11y();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Yes, cancel it' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(cancelButton).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(question).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Standing order cancelled').first()).toBeVisible();
    await expect(order.getByRole('heading', { name: `$25.00 to Payee Tester (account ending ${last4})` })).toBeFocused();
    expect(await focusOnBody()).toBe(false);
    await expect(order).toContainText('Cancelled');
    await expect(order).toContainText('None: cancelled');
    await expect(order.getByRole('button', { name: /Cancel/ })).toHaveCount(0);
    await noToasts(page);
    await checkA11y();
    // The server says the same.
    const listed = (await (await page.request.get('/api/standing-orders')).json()) as { data: Array<{ status: string; nextRunDate: string | null }> };
    expect(listed.data).toEqual([expect.objectContaining({ status: 'cancelled', nextRunDate: null })]);
  });
}

test("to a saved payee whose saved name is close to the holder's: the step says whose account it is, and the order can go on (375 px)", async ({
  page,
  checkA11y,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 900 });
  const payee = await newCustomer(page.request, page, { firstName: 'Marta', lastName: 'Kowalska' });
  await newCustomer(page.request, page, { firstName: 'Payer', lastName: 'Tester' });
  const last4 = payee.accountNumber.slice(-4);
  const saved = await page.request.post('/api/beneficiaries', {
    headers: fromOurPages(),
    data: { name: 'Marta Kowalski', accountNumber: payee.accountNumber },
  });
  expect(saved.status(), await saved.text()).toBe(201);

  await page.goto('/account/standing-orders');
  await page.getByLabel('Pay to').selectOption('payee');
  await page.getByLabel('Payee', { exact: true }).selectOption({ label: `Marta Kowalski (account ending ${last4})` });
  await page.getByLabel('Amount (USD)').fill('15');
  await page.getByLabel('Description').fill('Lessons');
  await page.getByLabel('First payment').fill(daysFromToday(2));
  await page.getByRole('button', { name: 'Continue' }).click();

  const confirm = page.getByRole('form', { name: 'Confirm standing order' });
  await expect(confirm).toContainText(`Marta Kowalski (account ending ${last4})`);
  await expect(confirm).toContainText('The name is close, but this account is held by Marta Kowalska.');
  // The saved payee's name is not changed from here: no "Use" button, and the text says the order can go on.
  await expect(confirm).toContainText('If that is who you mean to pay, you can go on.');
  await expect(confirm.getByRole('button', { name: /^Use / })).toHaveCount(0);
  await noToasts(page);
  await checkA11y();
  await page.screenshot({ path: test.info().outputPath('standing-order-saved-payee-close-375.png'), fullPage: true });
});

/** Wakes the standing-order job now (its schedule is every 5 minutes), as the runner's cron would. */
async function runStandingOrdersJob(): Promise<void> {
  const dataDir = `/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`;
  const url = runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`select graphile_worker.add_job('standing_orders_due', '{}'::json)`);
  } finally {
    await client.end();
  }
}

test('the job pays an order due today once, and the payer finds it labelled in the history (375 px)', async ({ page, request, checkA11y }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 900 });
  const payee = await newCustomer(page.request, page, { firstName: 'Landlord', lastName: 'Tester' });
  const payer = await newCustomer(page.request, page, { firstName: 'Tenant', lastName: 'Tester' });
  const adminToken = await staffBearerToken(request, ADMIN);
  const funded = await request.post(`/api/transaction/admin/${payer.id}`, {
    headers: { authorization: `Bearer ${adminToken}`, 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
    data: { amount: 100, transactionType: 'credit', date: daysFromToday(0), description: 'Opening gift', reason: 'e2e setup', account: 'checking' },
  });
  expect((await approvedStaffCall(funded)).status).toBe(201);

  // One payment today, set up through the API with the code emailed for it (the form is the journey above).
  const order = {
    from: 'checking',
    to: { kind: 'customer', accountNumber: payee.accountNumber },
    amount: 30,
    description: 'Window cleaning',
    frequency: 'once',
    startDate: daysFromToday(0),
  };
  const after = await lastMailId(page);
  const first = await page.request.post('/api/standing-orders', { headers: { ...fromOurPages(), 'idempotency-key': crypto.randomUUID() }, data: order });
  expect(first.status(), await first.text()).toBe(200);
  const paymentPin = await mailedCode(page, payer.email, after);
  const created = await page.request.post('/api/standing-orders', {
    headers: { ...fromOurPages(), 'idempotency-key': crypto.randomUUID() },
    data: { ...order, paymentPin },
  });
  expect(created.status(), await created.text()).toBe(201);

  // The job runs twice (a second wake finds nothing left to pay): the order is paid, once.
  await runStandingOrdersJob();
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/standing-orders')).json()) as { data: Array<{ lastResult: { outcome: string } | null }> }).data[0]?.lastResult
          ?.outcome,
      {
        timeout: 30_000,
      },
    )
    .toBe('paid');
  await runStandingOrdersJob();

  await page.goto('/account/standing-orders');
  const listed = page.getByTestId('standing-order');
  await expect(listed).toContainText('Window cleaning');
  await expect(listed).toContainText('Paid (due');
  await expect(listed).toContainText('Finished');
  await expect(listed).toContainText('None: finished');

  // The history labels it, with the payee; the balance moved by the one payment.
  await page.goto('/account/transactions');
  const line = page.getByTestId('transaction-line').filter({ hasText: 'Window cleaning' });
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Standing order');
  await expect(line).toContainText('\u2212$30.00');
  await noToasts(page);
  await checkA11y();
  await page.screenshot({ path: test.info().outputPath('standing-order-paid-history-375.png'), fullPage: true });
  const me = (await (await page.request.get('/api/user/me')).json()) as { data: { account: { checking: number } } };
  expect(me.data.account.checking).toBe(70);
});
