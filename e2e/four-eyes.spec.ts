import type { Page } from '@playwright/test';
import { bankDate } from '../src/server/lib/bank-time';
import { ADMIN, ADMIN2, expect, fromOurPages, newCustomer, signInAs, test } from './support/fixtures';

// Four eyes on money (issue 15, ADR 023): one staff member credits a customer, nothing moves; a
// second staff member approves in the queue, and the customer sees the adjustment. The staff
// member who asked cannot approve it.

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test('a staff credit waits for a second staff member, who approves it; the customer then sees it', async ({ browser, page, request, checkA11y }) => {
  test.setTimeout(240_000);
  const customer = await newCustomer(request, page);

  // ---------------------------------------------------------------- the first staff member asks
  const makerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const maker = await makerContext.newPage();
  await signInAs(maker, ADMIN, '/admin/login');
  await maker.goto('/admin/transactions/add-transactions');
  await expect(maker.getByRole('heading', { name: 'Add Transaction' })).toBeVisible();
  const option = maker.locator('option', { hasText: customer.email });
  await expect(option).toHaveCount(1);
  await maker.getByLabel('Customer').selectOption((await option.getAttribute('value')) ?? '');
  await maker.getByLabel('Amount (USD)').fill('42.50');
  await maker.getByLabel('Description').fill('Four eyes goodwill credit');
  await maker.getByLabel('Reason').fill('Complaint 4411 upheld');
  await maker.getByRole('button', { name: 'Add Transaction' }).click();
  await expect(maker.getByRole('status').filter({ hasText: 'Credit requested - awaiting approval by a second staff member' })).toBeVisible();
  await checkA11y(maker);

  // The customer's balance has not moved.
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  await expect(page.getByTestId('checking-balance')).toHaveText('$0.00');

  // The queue shows the request to the one who asked, without an Approve button; the sidebar counts it.
  await maker
    .getByRole('navigation', { name: 'Back office' })
    .first()
    .getByRole('link', { name: /^Approvals/ })
    .click();
  await expect(maker).toHaveURL(/\/admin\/approvals$/);
  await expect(maker).toHaveTitle(/Approvals/);
  await expect(maker.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(maker.getByTestId('nav-badge').first()).toHaveText(/^\d+ pending$/);
  const mine = maker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(mine).toContainText('Credit $42.50 to the checking account');
  await expect(mine).toContainText('You asked for this: a second staff member approves it.');
  await expect(mine.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await checkA11y(maker);
  await shot(maker, 'approvals-requester-1280');

  // Asking the API anyway: refused (403), and still pending.
  const listed = await maker.request.get('/api/admin/approvals?status=pending&pageSize=100');
  const approvalId = ((await listed.json()).data.items as Array<{ id: string; customer: { id: string } | null }>).find(
    (item) => item.customer?.id === customer.id,
  )?.id;
  expect(approvalId).toBeTruthy();
  const self = await maker.request.post(`/api/admin/approvals/${approvalId}/approve`, { headers: fromOurPages() });
  expect(self.status()).toBe(403);
  expect((await self.json()).message).toBe('You asked for this change: a second staff member must approve it.');
  await makerContext.close();

  // ---------------------------------------------------------------- the second staff member approves
  const checkerContext = await browser.newContext({ viewport: { width: 375, height: 900 } });
  const checker = await checkerContext.newPage();
  await signInAs(checker, ADMIN2, '/admin/login');
  await checker.goto('/admin/approvals');
  const card = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(card).toContainText('Credit $42.50 to the checking account');
  await expect(card).toContainText('Bank Administrator');
  await checkA11y(checker);
  await shot(checker, 'approvals-checker-375');
  // At 375 px the card's buttons are in view once the card is (no sideways scrolling); other
  // journeys' newer requests may sit above it in the queue.
  const approve = card.getByRole('button', { name: /^Approve the credit or debit: Credit \$42\.50/ });
  await card.scrollIntoViewIfNeeded();
  await expect(approve).toBeInViewport();
  const scrollWidth = await checker.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(375);

  await checker.setViewportSize({ width: 1280, height: 900 });
  const row = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await checkA11y(checker);
  await shot(checker, 'approvals-checker-1280');
  // With the keyboard: Tab to Approve, Enter, then Enter on the question's Approve (focus is there).
  const rowApprove = row.getByRole('button', { name: /^Approve the credit or debit/ });
  await rowApprove.focus();
  await checker.keyboard.press('Enter');
  await expect(row.getByRole('alertdialog').getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  await checker.keyboard.press('Enter');
  await expect(checker.getByText('Approved: the credit was posted', { exact: true }).first()).toBeVisible();
  await expect(checker.getByText('Transaction added successfully')).toHaveCount(0);
  await expect(checker.getByTestId('approval-row').filter({ hasText: customer.name })).toHaveCount(0);
  await checker.getByRole('button', { name: 'Approved', exact: true }).click();
  const done = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(done).toContainText('Approved');
  await expect(done).toContainText('Second Approver');
  await checkA11y(checker);
  await checker.setViewportSize({ width: 375, height: 900 });
  await expect(checker.getByTestId('approval-row').filter({ hasText: customer.name })).toContainText('Approved');
  await checkA11y(checker);
  await shot(checker, 'approvals-approved-375');
  await checkerContext.close();

  // ---------------------------------------------------------------- the customer sees it
  await page.reload();
  await expect(page.getByTestId('checking-balance')).toHaveText('$42.50');
  const line = page.getByTestId('transaction-line').filter({ hasText: 'Four eyes goodwill credit' });
  await expect(line).toContainText('Adjustment');
  await expect(line).toContainText('+$42.50');
  await checkA11y(page);
});

test('a rejected request shows its reason to the one who asked; the one who asked can cancel another', async ({ browser, request, page, checkA11y }) => {
  test.setTimeout(240_000);
  const customer = await newCustomer(request, page, { prefix: 'four-eyes-reject' });
  const ask = async (maker: Page, amount: string, description: string) => {
    await maker.goto('/admin/transactions/add-transactions');
    const option = maker.locator('option', { hasText: customer.email });
    await expect(option).toHaveCount(1);
    await maker.getByLabel('Customer').selectOption((await option.getAttribute('value')) ?? '');
    await maker.getByLabel('Amount (USD)').fill(amount);
    await maker.getByLabel('Description').fill(description);
    await maker.getByLabel('Reason').fill('Complaint 5120');
    await maker.getByRole('button', { name: 'Add Transaction' }).click();
    await expect(maker.getByRole('status').filter({ hasText: 'Credit requested - awaiting approval by a second staff member' })).toBeVisible();
  };

  // ---------------------------------------------------------------- the first staff member asks twice
  const makerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const maker = await makerContext.newPage();
  await signInAs(maker, ADMIN, '/admin/login');
  await ask(maker, '15.00', 'Goodwill credit to reject');
  await ask(maker, '16.00', 'Goodwill credit to cancel');

  // ---------------------------------------------------------------- the second staff member rejects one, with a reason
  const checkerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const checker = await checkerContext.newPage();
  await signInAs(checker, ADMIN2, '/admin/login');
  await checker.goto('/admin/approvals');
  const toReject = checker.getByTestId('approval-row').filter({ hasText: customer.name }).filter({ hasText: 'Credit $15.00' });
  await toReject.getByRole('button', { name: /^Reject the credit or debit: Credit \$15\.00/ }).click();
  const reason = toReject.getByLabel(/^Reason for rejecting the credit or debit/);
  await toReject.getByRole('button', { name: 'Confirm rejection' }).click();
  // An empty reason is refused in place; nothing is decided.
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await expect(toReject).toContainText('Pending');
  await reason.fill('No complaint 5120 on file: ask the customer for the reference');
  await checkA11y(checker);
  await toReject.getByRole('button', { name: 'Confirm rejection' }).click();
  await expect(checker.getByText('Request rejected').first()).toBeVisible();
  await expect(checker.getByTestId('approval-row').filter({ hasText: 'Credit $15.00' }).filter({ hasText: customer.name })).toHaveCount(0);
  await checkerContext.close();

  // ---------------------------------------------------------------- the one who asked sees the outcome and the reason; cancels the other
  await maker.goto('/admin/approvals');
  const toCancel = maker.getByTestId('approval-row').filter({ hasText: customer.name }).filter({ hasText: 'Credit $16.00' });
  await expect(toCancel).toContainText('You asked for this: a second staff member approves it.');
  await toCancel.getByRole('button', { name: /^Cancel request for the credit or debit: Credit \$16\.00/ }).click();
  await expect(maker.getByText('Request cancelled').first()).toBeVisible();
  await expect(maker.getByTestId('approval-row').filter({ hasText: customer.name })).toHaveCount(0);

  await maker.getByRole('button', { name: 'Rejected', exact: true }).click();
  const rejected = maker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(rejected).toHaveCount(1);
  await expect(rejected).toContainText('Credit $15.00 to the checking account');
  await expect(rejected).toContainText('Rejected');
  await expect(rejected).toContainText('Second Approver');
  await expect(rejected).toContainText('Reason: No complaint 5120 on file: ask the customer for the reference');
  await checkA11y(maker);
  await shot(maker, 'approvals-rejected-1280');
  await maker.setViewportSize({ width: 375, height: 900 });
  const rejectedCard = maker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(rejectedCard).toContainText('Reason: No complaint 5120 on file: ask the customer for the reference');
  await checkA11y(maker);
  await shot(maker, 'approvals-rejected-375');
  await maker.setViewportSize({ width: 1280, height: 900 });

  await maker.getByRole('button', { name: 'Cancelled', exact: true }).click();
  const cancelled = maker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(cancelled).toHaveCount(1);
  await expect(cancelled).toContainText('Credit $16.00 to the checking account');
  await expect(cancelled).toContainText('Cancelled');
  await checkA11y(maker);
  await makerContext.close();

  // Nothing moved: the customer's balance is still zero.
  await signInAs(page, customer);
  await expect(page.getByTestId('checking-balance')).toHaveText('$0.00');
});

test('an approval that can no longer be carried out says why and closes as failed', async ({ browser, request, page, checkA11y }) => {
  test.setTimeout(240_000);
  // A credit, approved; then the customer moves the money on, so reversing the credit cannot be done.
  const customer = await newCustomer(request, page, { prefix: 'four-eyes-fail' });
  const makerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const maker = await makerContext.newPage();
  await signInAs(maker, ADMIN, '/admin/login');
  const checkerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const checker = await checkerContext.newPage();
  await signInAs(checker, ADMIN2, '/admin/login');
  const credit = await maker.request.post(`/api/transaction/admin/${customer.id}`, {
    headers: { 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
    data: { amount: 25, transactionType: 'credit', date: bankDate(new Date(), 'UTC'), description: 'Credit to reverse later', reason: 'Complaint 6001' },
  });
  expect(credit.status(), await credit.text()).toBe(202);
  const approved = await checker.request.post(`/api/admin/approvals/${(await credit.json()).data.approvalId}/approve`, { headers: fromOurPages() });
  expect(approved.status(), await approved.text()).toBe(200);
  const entryId = (await approved.json()).data.outcome.data.entryId as string;
  const moved = await request.post('/api/transaction/internal-transfer', {
    headers: { authorization: `Bearer ${customer.token}`, 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
    data: { from: 'checking', to: 'savings', amount: 20 },
  });
  expect(moved.status(), await moved.text()).toBe(201);
  const reversal = await maker.request.delete(`/api/transaction/admin/${entryId}`, {
    headers: { 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
    data: { reason: 'Credited in error' },
  });
  expect(reversal.status(), await reversal.text()).toBe(202);
  await makerContext.close();

  // The second staff member approves: the toast says whose money is missing, the request leaves the
  // pending list, and the Failed list shows it with the reason.
  await checker.goto('/admin/approvals');
  const row = checker.getByTestId('approval-row').filter({ hasText: customer.name }).filter({ hasText: 'Reverse' });
  await row.getByRole('button', { name: /^Approve the/ }).click();
  await row.getByRole('alertdialog').getByRole('button', { name: 'Approve', exact: true }).click();
  const why = `Insufficient funds: ${customer.name}'s checking account ${customer.accountNumber} holds less than this reversal takes back.`;
  await expect(checker.getByText(why).first()).toBeVisible();
  await expect(checker.getByTestId('approval-row').filter({ hasText: customer.name }).filter({ hasText: 'Reverse' })).toHaveCount(0);
  await checker.getByRole('button', { name: 'Failed', exact: true }).click();
  const failed = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(failed).toContainText('Failed');
  await expect(failed).toContainText(`Reason: ${why}`);
  await expect(failed.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await checkA11y(checker);
  await shot(checker, 'approvals-failed-1280');
  await checkerContext.close();
});
