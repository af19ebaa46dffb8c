import type { Locator, Page } from '@playwright/test';
import { DEMO_CUSTOMER, expect, fromOurPages, lookAtBothWidths, staffSignInByApi, test, waitForHydration } from './support/fixtures';

// A refused form says what is wrong twice over, each in its place: the alert above the form (the
// spec's words, announced once) and, at each field at fault, that field's own message, shown next to
// it and read as its description (aria-describedby), so a screen reader user who tabs to the field
// hears what to fix there. The field's description is its own message, never the form's alert.

/** The field at fault: marked, and described by the message shown right under it (and nothing else). */
async function expectOwnMessage(field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  // The description is an element next to the field (in the field's own block), not the form's alert.
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  expect(ids.length, 'the field points at its message').toBeGreaterThan(0);
  const described = field.page().locator(`[id="${ids[0]}"]`);
  await expect(described).toHaveText(message);
  await expect(described).toBeVisible();
  await expect(described).not.toHaveAttribute('role', /alert|status/);
  const sameBlock = await field.evaluate((input, id) => !!input.closest('div:has(> label)')?.querySelector(`[id="${id}"]`), ids[0]);
  expect(sameBlock, 'the message sits with its field').toBe(true);
}

async function signInCustomer(page: Page): Promise<void> {
  const response = await page.request.post('/api/auth/signin', { headers: fromOurPages(), data: DEMO_CUSTOMER });
  expect(response.status()).toBe(200);
}

test('a customer form: each field at fault is described by its own message, the alert keeps the spec’s words', async ({ page, checkA11y }) => {
  // The public sign-in, empty: the spec's alert, and each field says it is missing.
  await page.goto('/signin');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
  await expectOwnMessage(page.getByLabel('Email'), 'Email is required');
  await expectOwnMessage(page.getByLabel('Password', { exact: true }), 'Password is required');
  await lookAtBothWidths(page, 'field-errors-signin', checkA11y);

  // Changing the password, the confirmation differs: the one field at fault says so.
  await signInCustomer(page);
  await page.goto('/account/update-password');
  await waitForHydration(page);
  await page.getByLabel('Current password', { exact: true }).fill('Whatever-it-was-1');
  await page.getByLabel('New password', { exact: true }).fill('Quiet-Meadow-Lantern-42');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Quiet-Meadow-Lantern-43');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
  await expectOwnMessage(page.getByLabel('Confirm new password', { exact: true }), 'Passwords do not match');
  await expect(page.getByLabel('Current password', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');

  // The loan application, empty: the spec's alert, and each blank field named at its place.
  await page.goto('/account/loans/apply');
  await waitForHydration(page);
  await page.getByLabel('Loan duration (months)').fill('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields are required');
  await expectOwnMessage(page.getByLabel('Loan purpose'), 'Loan purpose is required');
  // A field with a hint: its message first, then the hint (what to fix, then how).
  await expect(page.getByLabel('Loan amount (USD)')).toHaveAccessibleDescription(/^Loan amount is required \$2,500\.00 to \$50,000\.00$/);
  await expect(page.getByLabel('Loan type')).not.toHaveAttribute('aria-invalid', 'true');
  await lookAtBothWidths(page, 'field-errors-loan-apply', checkA11y);

  // One submit names everything to fix: a blank field (the spec's alert) and a wrong one beside it.
  await page.goto('/account/update-account');
  await waitForHydration(page);
  await page.getByLabel('Address').fill('');
  await page.getByLabel('Email').fill('jamie@example');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields are required');
  await expect(page.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  await expectOwnMessage(page.getByLabel('Email'), 'Please enter a valid email address');
  await page.goto('/account/loans/apply');
  await waitForHydration(page);
  await page.getByLabel('Loan duration (months)').fill('');
  await page.getByRole('button', { name: 'Apply' }).click();

  // Fixing a field takes its message away.
  await page.getByLabel('Loan purpose').fill('A new roof');
  await expect(page.getByLabel('Loan purpose')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Loan purpose')).toHaveAccessibleDescription('');
});

test('a back-office form: each field at fault is described by its own message', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  // The journal's filters, a range the wrong way round: the message names the fields as staff see them.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/journal');
  await waitForHydration(page);
  const filters = page.getByRole('form', { name: 'Filter the journal' });
  await filters.getByLabel('Amount from').fill('50');
  await filters.getByLabel('Amount to').fill('10');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(filters.getByRole('alert')).toHaveText('Amount to must not be below Amount from');
  await expectOwnMessage(filters.getByLabel('Amount to'), 'Amount to must not be below Amount from');

  // Add transaction, empty: the spec's alert, and every blank field named where it is.
  await page.goto('/admin/transactions/add-transactions');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  await expect(page.getByRole('alert').first()).toHaveText(/^All fields are required/);
  await expectOwnMessage(page.getByLabel('Customer'), 'Customer is required');
  await expectOwnMessage(page.getByLabel('Amount (USD)'), 'Amount is required');
  await lookAtBothWidths(page, 'field-errors-add-transaction', checkA11y);
});

test('an amount typed with a comma is refused as typed, never read as another amount', async ({ page, checkA11y }) => {
  // A number input made "12,50" 1250 as it was typed: $1,250.00 moved, or an IMS code asked for it.
  await signInCustomer(page);
  const balances = async () => (await (await page.request.get('/api/auth/user')).json()).data.account;
  const before = await balances();
  for (const path of ['/account/internal_transfer', '/account/transfer', '/account/standing-orders', '/account/requests']) {
    await page.goto(path);
    await waitForHydration(page);
    const amount = page.getByLabel('Amount (USD)');
    await amount.pressSequentially('12,50');
    await expect(amount, path).toHaveValue('12,50');
    await amount.press('Enter');
    await expectOwnMessage(amount, 'Amount must be typed without commas, e.g. 1000.00');
  }
  await checkA11y();
  expect(await balances()).toEqual(before);
  // Nor was an IMS code mailed for $1,250.00.
  expect(await (await page.request.get('/dev/mailbox?format=json')).text()).not.toContain('$1,250.00');
});
