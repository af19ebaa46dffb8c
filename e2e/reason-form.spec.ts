import { bankDate } from '../src/server/lib/bank-time';
import { ADMIN, ADMIN2, expect, fromOurPages, newCustomer, signInAs, staffBearerToken, test } from './support/fixtures';

// A rejection's reason form while the rejection is on its way: Escape and Cancel do not close it
// (closing it would look like the rejection was called off, and it was not); once the answer is in,
// the row has left the pending list.

test('a rejection being sent cannot be closed with Escape or Cancel, and goes through', async ({ page }) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(page.request, page);
  const headers = { authorization: `Bearer ${await staffBearerToken(page.request, ADMIN)}`, ...fromOurPages() };
  const credit = await page.request.post(`/api/transaction/admin/${customer.id}`, {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { amount: 12, transactionType: 'credit', date: bankDate(new Date(), 'UTC'), description: 'Reason form credit', reason: 'Reason form journey' },
  });
  expect(credit.status(), await credit.text()).toBe(202);
  await page.context().clearCookies();
  await signInAs(page, ADMIN2, '/admin/login');
  await page.goto('/admin/approvals');
  const row = page.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(row).toHaveCount(1);

  // The rejection is held on its way until the test lets it go.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/approvals/*/reject', async (route) => {
    await held;
    await route.continue();
  });

  await row.getByRole('button', { name: /^Reject/ }).click();
  const reason = row.getByRole('textbox', { name: /Reason for rejecting/ });
  await reason.fill('Not this customer');
  await row.getByRole('button', { name: 'Confirm rejection' }).click();
  await expect(row.getByRole('button', { name: 'Confirm rejection' })).toBeDisabled();
  await expect(row.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await reason.focus();
  await page.keyboard.press('Escape');
  await expect(reason).toBeVisible();
  await expect(reason).toHaveValue('Not this customer');

  release();
  await expect(row).toHaveCount(0);
  const rejected = await page.request.get('/api/admin/approvals?status=rejected&pageSize=100');
  const texts = JSON.stringify((await rejected.json()).data.items);
  expect(texts).toContain('Not this customer');
});
