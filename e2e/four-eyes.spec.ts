import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, ADMIN2, expect, fromOurPages, mailedCode, signInAs, test, uniqueEmail } from './support/fixtures';

// Four eyes on money (issue 15, ADR 023): one staff member credits a customer, nothing moves; a
// second staff member approves in the queue, and the customer sees the adjustment. The staff
// member who asked cannot approve it.

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function newCustomer(request: APIRequestContext, page: Page): Promise<{ id: string; email: string; password: string; name: string }> {
  const email = uniqueEmail('four-eyes');
  const password = 'Copper-Ledger-73';
  const lastName = `Checker${Math.random().toString(36).slice(2, 6)}`;
  const signUp = await request.post('/api/auth/signup', {
    data: {
      firstName: 'Quinn',
      lastName,
      email,
      address: '4 Maker Street, Springfield',
      dateOfBirth: '1985-03-02',
      sex: 'Other',
      countryCode: '1',
      phone: '+1 202 555 0144',
      occupation: 'private',
      annualIncomeRange: '$30,000.00 - $70,000.00',
      accountType: 'Checking',
      password,
      confirmPassword: password,
    },
  });
  expect(signUp.status()).toBe(201);
  const signIn = await request.post('/api/auth/signin', { headers: fromOurPages(), data: { email, password } });
  const token = ((await signIn.json()) as { data: { token: string } }).data.token;
  const verify = await request.post('/api/auth/verify-email', { headers: { authorization: `Bearer ${token}` }, data: { otp: await mailedCode(page, email) } });
  expect(verify.status()).toBe(200);
  return { id: ((await verify.json()) as { data: { _id: string } }).data._id, email, password, name: `Quinn ${lastName}` };
}

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
  await expect(maker.getByRole('status').filter({ hasText: 'Transaction added successfully - awaiting approval by a second staff member' })).toBeVisible();
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
  const card = checker.getByTestId('approval-card').filter({ hasText: customer.name });
  await expect(card).toContainText('Credit $42.50 to the checking account');
  await expect(card).toContainText('Bank Administrator');
  await checkA11y(checker);
  await shot(checker, 'approvals-checker-375');
  // At 375 px the card's buttons are in view (no sideways scrolling).
  const approve = card.getByRole('button', { name: /^Approve the credit or debit: Credit \$42\.50/ });
  await expect(approve).toBeInViewport();
  const scrollWidth = await checker.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(375);

  await checker.setViewportSize({ width: 1280, height: 900 });
  const row = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(row).toBeVisible();
  await checkA11y(checker);
  await shot(checker, 'approvals-checker-1280');
  // With the keyboard: Tab to Approve, Enter, accept the confirmation.
  checker.once('dialog', (dialog) => void dialog.accept());
  const rowApprove = row.getByRole('button', { name: /^Approve the credit or debit/ });
  await rowApprove.focus();
  await checker.keyboard.press('Enter');
  await expect(checker.getByText('Transaction added successfully', { exact: true }).first()).toBeVisible();
  await expect(checker.getByTestId('approval-row').filter({ hasText: customer.name })).toHaveCount(0);
  await checker.getByRole('button', { name: 'Approved', exact: true }).click();
  const done = checker.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(done).toContainText('Approved');
  await expect(done).toContainText('Second Approver');
  await checkA11y(checker);
  await checker.setViewportSize({ width: 375, height: 900 });
  await expect(checker.getByTestId('approval-card').filter({ hasText: customer.name })).toContainText('Approved');
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
