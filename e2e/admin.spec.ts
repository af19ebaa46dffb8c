import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, fromOurPages, newCustomer, signInAs, test, approvedStaffCall } from './support/fixtures';

/** Sonner's rich-colour toasts fail axe's contrast check (root Toaster): let them go first. */
async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

/** The first step of a payment to another customer: it asks for a transfer code, or is refused. */
function startTransfer(request: APIRequestContext, customer: { token: string }) {
  return request.post('/api/transaction/transfer', {
    headers: { authorization: `Bearer ${customer.token}`, 'idempotency-key': crypto.randomUUID() },
    data: { amount: 10, accountType: 'checking', accountNumber: '1234567897', routingNumber: '021000021', bankName: 'Other Bank', to: 'Pat Payee' },
  });
}

test.describe('admin back office', () => {
  test('finds a customer by account number, blocks them, edits their details and sees it all in the audit log', async ({ page, request, checkA11y }) => {
    // The longest journey (sign-up, eight pages, six axe runs): 49 s on a loaded 2-core machine,
    // past a minute when it is also the run's first test.
    test.setTimeout(120_000);
    const customer = await newCustomer(request, page, { firstName: 'Morgan', lastName: 'Blockley', prefix: 'admin-e2e' });

    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByText('Customers', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: /Transfer volume, last 30 days/ })).toBeVisible();
    await page.getByText('Show the numbers').click();
    await expect(page.getByRole('table', { name: 'Transfers per day, last 30 days' })).toBeVisible();
    await noToasts(page);
    await checkA11y();
    // "Today's journal entries" opens the journal filtered to today's bookings (the bank's day, UTC here, as counted).
    await page.getByRole('link', { name: "Today's journal entries" }).click();
    await expect(page).toHaveURL(/\/admin\/journal\?bookedFrom=[0-9-]+T00%3A00%3A00\.000Z&bookedTo=/);
    await expect(page.getByRole('form', { name: 'Filter the journal' }).getByLabel('Booked from')).not.toHaveValue('');
    // A users page past the last one says so (not "No users yet").
    await page.goto('/admin/users?page=99999');
    await expect(page.getByRole('status').filter({ hasText: 'No users on this page: it is past the last one.' })).toBeVisible();
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Back office overview' })).toBeVisible();

    // Money for the customer, booked by staff through the ledger (so a payment could go out).
    const credit = await page.request.post(`/api/transaction/admin/${customer.id}`, {
      headers: { 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
      data: { amount: 250, transactionType: 'credit', date: new Date().toISOString().slice(0, 10), description: 'Welcome credit', reason: 'Admin e2e journey' },
    });
    expect((await approvedStaffCall(credit)).status).toBe(201);
    const before = await startTransfer(request, customer);
    expect(before.status(), await before.text()).toBe(200);

    // Find them by account number.
    await page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('table', { name: /Users, page 1/ })).toBeVisible();
    await checkA11y();
    // A search that finds no one is echoed back whole, and wraps on a phone rather than widen the page.
    await page.setViewportSize({ width: 375, height: 900 });
    const longTerm = 'x'.repeat(100);
    await page.getByLabel('Search users').fill(longTerm);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: `No users match "${longTerm}".` })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Search users').fill(customer.accountNumber);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`search=${customer.accountNumber}`));
    const rows = page.getByRole('table', { name: /Users/ }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(customer.email);
    await page.getByRole('link', { name: 'View Morgan Blockley' }).click();

    await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));
    await expect(page.getByRole('heading', { name: 'Morgan Blockley', level: 1 })).toBeVisible();
    await expect(page.getByText('Account number', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText(customer.accountNumber);
    await expect(page.getByText('Checking', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText('$250.00');
    await expect(page.getByTestId('transaction-line').getByText('Welcome credit')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Verification documents' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit account info' })).toHaveAttribute('href', `/admin/users/account/${customer.id}`);
    await expect(page.getByRole('link', { name: 'Transactions', exact: true })).toHaveAttribute('href', `/admin/transactions/${customer.id}`);
    await checkA11y();

    // Block.
    await page.getByRole('link', { name: 'Edit user' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/users/edit/${customer.id}$`));
    await checkA11y();
    // Sign-up asks for no state; the back office requires every field, as the spec says.
    await page.getByLabel('Blocked').selectOption('true');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'All fields are required' })).toBeVisible();
    await page.getByLabel('State').fill('Ohio');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('User updated successfully')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));
    await expect(page.getByText('Blocked', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText('Yes');

    // The customer's outgoing transfer is refused at once.
    const refused = await startTransfer(request, customer);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe('Your account is blocked from sending money. Please contact support.');

    // Edit details; then a failing update shows its message on the form.
    await page.getByRole('link', { name: 'Edit user' }).click();
    await page.getByLabel('Phone').fill('+1 202 555 0999');
    await page.getByLabel('State').fill('Vermont');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));
    await expect(page.getByText('+1 202 555 0999')).toBeVisible();
    await expect(page.getByText('Vermont')).toBeVisible();

    await page.getByRole('link', { name: 'Edit user' }).click();
    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'All fields are required' })).toBeVisible();
    await page.getByLabel('First name').fill('Morgan');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This email address is already used by another account.' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/users/edit/${customer.id}$`));
    await noToasts(page);
    await checkA11y();

    // Delete needs two confirmations; with money on the account it fails and stays on the page.
    await page.goto(`/admin/users/${customer.id}`);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Delete Morgan Blockley?' })).toBeVisible();
    await page.getByRole('button', { name: 'Yes, continue' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Are you absolutely sure?' })).toBeVisible();
    await page.getByRole('button', { name: 'Close account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Balances must be zero before this account can be closed (checking $250.00)' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));

    // Every action is in the audit log.
    await page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await page.getByLabel('Customer').fill(customer.accountNumber);
    await page.getByRole('button', { name: 'Filter' }).click();
    // The filtered list shows once the address has changed (the page loads it first); until then
    // the whole log is on screen, where other journeys' entries are too.
    await expect(page).toHaveURL(new RegExp(`customer=${customer.accountNumber}$`));
    const log = page.getByRole('table', { name: 'Audit log, newest first' });
    await expect(log.getByText('user.block')).toBeVisible();
    await expect(log.getByText('user.update')).toHaveCount(2);
    const newest = log.getByRole('row').nth(1);
    await expect(newest).toContainText('user.update');
    await expect(newest).toContainText('Vermont');
    // The audit log records the stored value, the E.164 form of what staff typed.
    await expect(newest).toContainText('+12025550999');
    await expect(newest).toContainText(ADMIN.email);
    await expect(log.getByRole('row').nth(2)).toContainText('user.block');
    await page.getByLabel('Action').selectOption('user.block');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/action=user\.block/);
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(log.getByRole('row').nth(1)).toContainText('Morgan Blockley');
    await noToasts(page);
    await checkA11y();
  });

  test('opens the journal from the sidebar and filters it by value date and amount', async ({ page, request, checkA11y }) => {
    const customer = await newCustomer(request, page, { firstName: 'Morgan', lastName: 'Blockley', prefix: 'admin-e2e' });
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // Two staff entries on a value date no other journey uses (a random day 30 to 365 days ago: staff
    // may date an entry within a year of today), so the filtered list is this test's alone: the other
    // spec files post entries in parallel, so "newest first" alone would not be stable.
    const day = new Date(Date.now() - (30 + Math.floor(Math.random() * 335)) * 86_400_000);
    const valueDate = day.toISOString().slice(0, 10);
    for (const [transactionType, amount, description] of [
      ['credit', 120, 'Journal e2e credit'],
      ['debit', 45, 'Journal e2e debit'],
    ] as const) {
      const posted = await page.request.post(`/api/transaction/admin/${customer.id}`, {
        headers: { 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
        data: { amount, transactionType, date: valueDate, description, reason: 'Admin journal e2e journey' },
      });
      expect((await approvedStaffCall(posted)).status).toBe(201);
    }

    await page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'Journal' }).click();
    await expect(page).toHaveURL(/\/admin\/journal$/);
    await expect(page.getByRole('heading', { name: 'Journal', level: 1 })).toBeVisible();
    // The whole journal (every account, the bank's included): one row per entry, both its sides named.
    const journal = page.getByRole('table', { name: 'Journal entries, newest first' });
    await expect(journal).toBeVisible();
    await checkA11y();

    await page.getByLabel('Value date from').fill(valueDate);
    await page.getByLabel('Value date to').fill(valueDate);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(new RegExp(`valueFrom=${valueDate}&valueTo=${valueDate}$`));
    const rows = journal.getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('Journal e2e debit');
    await expect(rows.nth(1)).toContainText('$45.00');
    await expect(rows.nth(2)).toContainText('Journal e2e credit');
    await expect(rows.nth(2)).toContainText('$120.00');
    await expect(rows.nth(2)).toContainText(customer.accountNumber);
    await expect(rows.nth(2)).toContainText('Morgan Blockley');
    await expect(rows.nth(2)).toContainText('Operations adjustments (bank)');

    await page.getByLabel('Amount from').fill('100');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/amountMin=100/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Journal e2e credit');
    await expect(journal).not.toContainText('Journal e2e debit');
    await checkA11y();

    // The address keeps the filters: a reload shows the same list and the same choices.
    await page.reload();
    await expect(page.getByLabel('Amount from')).toHaveValue('100');
    await expect(page.getByLabel('Value date from')).toHaveValue(valueDate);
    await expect(journal.getByRole('row')).toHaveCount(2);
  });

  test('the general ledger adds up to zero and verifies from the back office', async ({ page, checkA11y }) => {
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.getByRole('navigation', { name: 'Back office' }).first().getByRole('link', { name: 'General ledger' }).click();
    await expect(page).toHaveURL(/\/admin\/ledger$/);
    await expect(page.getByRole('heading', { name: 'General ledger', level: 1 })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Cash' })).toBeVisible();
    await expect(page.getByTestId('ledger-total')).toHaveText('$0.00');
    await checkA11y();
    await page.getByRole('button', { name: 'Verify the ledger' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /^OK: \d+ entries, \d+ accounts; every balance matches, \d+ entries on the hash chain/ }),
    ).toBeVisible({
      timeout: 30_000,
    });
    await checkA11y();
    await page.goto('/admin/audit');
    await expect(page.getByRole('table').getByText('ledger.verify').first()).toBeVisible();
  });

  test("an admin's own Disabled select is locked with the note", async ({ page, checkA11y }) => {
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const me = (await (await page.request.get('/api/user/me')).json()) as { data: { _id: string } };
    await page.goto(`/admin/users/edit/${me.data._id}`);
    await expect(page.getByLabel('Disabled')).toBeDisabled();
    await expect(page.getByText('You cannot disable an admin account')).toBeVisible();
    await checkA11y();
    await page.goto(`/admin/users/${me.data._id}`);
    await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
    await checkA11y();
  });
});
