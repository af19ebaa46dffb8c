import type { APIRequestContext } from '@playwright/test';
import {
  ADMIN,
  approvedStaffCall,
  DEMO_CUSTOMER,
  DEMO_CUSTOMER_2,
  demoMoneyTest as test,
  expect,
  expectLegibleChart,
  fromOurPages,
  newCustomer,
  staffBearerToken,
  tabTo,
  transferByApi,
} from './support/fixtures';

// Issue 14's history you can search: words (a payee's name), an amount range, the running balance
// column, and the monthly chart with its table of figures.

async function accountNumberOf(request: APIRequestContext, user: { email: string; password: string }): Promise<string> {
  const response = await request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  return ((await response.json()) as { data: { user: { account: { number: string } } } }).data.user.account.number;
}

test('the history is searched by a payee name and by an amount range, with its running balance and the chart figures', async ({ page, request, checkA11y }) => {
  test.setTimeout(120_000);
  // The demo customers' numbers and the staff token come through the request fixture (its own
  // cookies): the page stays signed in as the new customer.
  const jamieNumber = await accountNumberOf(request, DEMO_CUSTOMER_2);
  const alexNumber = await accountNumberOf(request, DEMO_CUSTOMER);

  const customer = await newCustomer(page.request, page, { firstName: 'Sam', lastName: 'Tester' });
  const adminToken = await staffBearerToken(request, ADMIN);
  const funded = await request.post(`/api/transaction/admin/${customer.id}`, {
    headers: { authorization: `Bearer ${adminToken}`, 'idempotency-key': crypto.randomUUID() },
    data: { amount: 500, transactionType: 'credit', date: new Date().toISOString().slice(0, 10), description: 'Opening gift', reason: 'e2e setup' },
  });
  expect((await approvedStaffCall(funded)).status).toBe(201);

  // Three payments from the page's session: two to Jamie Lee, one to Alex Morgan.
  for (const [number, name, dollars, words] of [
    [jamieNumber, 'Jamie Lee', 25, 'Concert tickets'],
    [alexNumber, 'Alex Morgan', 60, 'Bike repair'],
    [jamieNumber, 'Jamie Lee', 140, 'Rent share'],
  ] as const) {
    await transferByApi(page, customer.email, { amount: dollars, accountType: 'checking', accountNumber: number, to: name, description: words });
  }

  await page.goto('/account/transactions');
  const lines = page.getByTestId('transaction-line');
  await expect(lines).toHaveCount(4);
  // The running balance: the checking balance after each line, newest first.
  await expect(page.getByTestId('running-balance')).toHaveText(['$275.00Checking', '$415.00Checking', '$475.00Checking', '$500.00Checking']);
  await checkA11y();

  // By the payee's name.
  const form = page.getByRole('form', { name: 'Filter transactions' });
  await form.getByLabel('Search').fill('jamie');
  await form.getByLabel('Search').press('Enter');
  await expect(page).toHaveURL(/\/account\/transactions\?q=jamie$/);
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('Rent share');
  await expect(lines.nth(1)).toContainText('Concert tickets');
  await expect(lines.nth(0)).toContainText('Jamie Lee');
  await expect(page.getByText('Page 1 of 1 (2 results)')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: test.info().outputPath('history-search-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath('history-search-1280.png'), fullPage: true });
  // A page past the end (an address edited by hand) says so, and Previous goes to the last page.
  await page.goto('/account/transactions?q=jamie&page=9');
  await expect(page.getByText('Page 9 is past the end: the last is page 1 (2 results)')).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/\/account\/transactions\?q=jamie$/);
  await expect(lines).toHaveCount(2);
  await expect(page.getByText('Page 1 of 1 (2 results)')).toBeVisible();

  // By an amount range (with the words cleared): $50 to $150.
  await form.getByLabel('Search').fill('');
  await form.getByLabel('Amount from (USD)').fill('50');
  await form.getByLabel('Amount to (USD)').fill('150');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/\?amountMin=50&amountMax=150$/);
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('−$140.00');
  await expect(lines.nth(1)).toContainText('−$60.00');
  // Both together, and an impossible range refused in place.
  await form.getByLabel('Search').fill('alex');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText('Bike repair');
  // Named as the form labels the fields, not by the API's parameter names. (A refused submit moves
  // focus to the faulty field, once more a moment later: the field typed into next is that one.)
  // Each says what is in the way: the minus sign, the comma.
  await form.getByLabel('Amount from (USD)').fill('-5');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(form.getByText('Amount from (USD) cannot be negative')).toBeVisible();
  await form.getByLabel('Amount from (USD)').fill('1,000.00');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(form.getByText('Amount from (USD) must be typed without commas, e.g. 1000.00')).toBeVisible();
  await expect(page).toHaveURL(/\?q=alex&amountMin=50&amountMax=150$/);
  await form.getByLabel('Amount from (USD)').fill('200');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(form.getByText('Amount from (USD) must not be more than Amount to (USD)')).toBeVisible();
  await expect(form.getByText(/amountMin|amountMax/)).toHaveCount(0);
  await expect(page).toHaveURL(/\?q=alex&amountMin=50&amountMax=150$/);
  await checkA11y();

  // The chart's figures: reached with the keyboard, as a table.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(lines).toHaveCount(4);
  const chart = page.getByRole('img', { name: /Money in and out per month, both accounts, last 12 months/ });
  await expect(chart).toBeVisible();
  // Its labels read on a phone too: the chart is drawn at the width it is shown (scaled down from
  // a 720-unit drawing, they were about 5 px tall at 375 px), with a label every other month where
  // twelve do not fit, and the page does not scroll sideways.
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectLegibleChart(chart, /^[A-Z][a-z]{2}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    await chart.screenshot({ path: test.info().outputPath(`monthly-chart-${width}.png`) });
  }
  await checkA11y();
  const figures = page.getByText('Show the figures');
  await tabTo(page, figures, 120);
  await page.keyboard.press('Enter');
  const table = page.getByRole('table', { name: 'Money in and out per month, both accounts, last 12 months' });
  await expect(table).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(13);
  const thisMonth = new Date().toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  await expect(table.getByRole('row', { name: new RegExp(thisMonth) })).toHaveText(`${thisMonth}$500.00$225.00`);
  await checkA11y();
});
