import type { APIRequestContext, Page } from '@playwright/test';
import {
  DEMO_CUSTOMER,
  demoMoneyTest as test,
  expect,
  fromOurPages,
  lastMailId,
  lookAtBothWidths,
  mailedCode,
  newCustomer,
  signInAs,
  tabTo,
  virtualAuthenticator,
} from './support/fixtures';

// Transfer approval with a passkey (issue 13's dynamic linking, ADR 024), in Chromium with its
// virtual authenticator (the DevTools WebAuthn domain): a new customer registers a passkey,
// approves a transfer with it and sees it posted; a transfer whose amount changes between the
// approval and the posting is refused and nothing moves; the emailed code stays as the fallback.
// The new customer is paid by the demo customer first (the demo money lock keeps balances true).

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

interface SignedIn {
  token: string;
  user: { account: { number: string; savings: number; checking: number } };
}

async function signInByApi(request: APIRequestContext, user: { email: string; password: string }): Promise<SignedIn> {
  const response = await request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: SignedIn }).data;
}

/** The demo customer pays `to` by API, with the emailed code (so the new customer has money to send). */
async function payFromDemo(request: APIRequestContext, page: Page, accountNumber: string, dollars: number): Promise<void> {
  const { token } = await signInByApi(request, DEMO_CUSTOMER);
  const body = { amount: dollars, accountType: 'checking', accountNumber, to: 'Avery Approver', description: 'Starting money' };
  const headers = (key: string) => ({ authorization: `Bearer ${token}`, 'idempotency-key': key });
  const after = await lastMailId(page);
  const first = await request.post('/api/transaction/transfer', { headers: headers(`fund-${accountNumber}-1`), data: body });
  expect(first.status()).toBe(200);
  const paymentPin = await mailedCode(page, DEMO_CUSTOMER.email, after);
  const second = await request.post('/api/transaction/transfer', { headers: headers(`fund-${accountNumber}-2`), data: { ...body, paymentPin } });
  expect(second.status()).toBe(201);
}

async function fillTransfer(page: Page, values: { amount: string; to: string; accountNumber: string; description: string }): Promise<void> {
  await page.goto('/account/transfer');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.getByLabel('From account').selectOption('checking');
  await page.getByLabel('Amount (USD)').fill(values.amount);
  await page.getByLabel('Recipient name').fill(values.to);
  await page.getByLabel('Account number').fill(values.accountNumber);
  await page.getByLabel('Description (optional)').fill(values.description);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a transfer approved with a passkey: what it authorizes is shown, it posts, and a changed amount is refused', async ({ page, request, checkA11y }) => {
  test.setTimeout(150_000);
  const customer = await newCustomer(request, page, { firstName: 'Avery', lastName: 'Approver', prefix: 'approval' });
  // The customer's API session from before the passkey (a sign-in afterwards needs the passkey).
  const session = await signInByApi(request, { email: customer.email, password: customer.password });
  const own = session.user.account;
  const checkingOf = async () => {
    const response = await request.get('/api/user/me', { headers: { authorization: `Bearer ${session.token}` } });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { data: { account: { checking: number } } }).data.account.checking;
  };
  await payFromDemo(request, page, own.number, 200);
  const payee = (await signInByApi(request, DEMO_CUSTOMER)).user.account;
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  // A passkey, registered on the security page.
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  await page.goto('/account/security');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.getByLabel('Passkey name (optional)').fill('This laptop');
  await page.getByLabel('Passkey name (optional)').press('Enter');
  await expect(page.getByText('Passkey added.').first()).toBeVisible();
  const registered = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  expect(registered).toHaveLength(1);

  // The transfer's approval step shows the amount and payee the passkey will authorize.
  await fillTransfer(page, { amount: '25', to: 'Alex Morgan', accountNumber: payee.number, description: 'Book club' });
  await expect(page.getByRole('heading', { name: 'Approve this transfer' })).toBeVisible();
  const summary = page.getByRole('definition');
  await expect(summary.filter({ hasText: '$25.00 USD' })).toHaveCount(1);
  await expect(summary.filter({ hasText: `Alex Morgan (account ending ${payee.number.slice(-4)})` })).toHaveCount(1);
  await expect(summary.filter({ hasText: 'Book club' })).toHaveCount(1);
  await lookAtBothWidths(page, 'approve-transfer-passkey', checkA11y);

  // Approved from the keyboard; the passkey signs, the transfer posts.
  await tabTo(page, page.getByRole('button', { name: 'Approve with passkey' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await expect(page.getByRole('status').filter({ hasText: 'Transfer Successful' })).toBeVisible();
  await expect(page.getByTestId('transaction-line').first()).toContainText('Book club');
  await expect(page.getByTestId('transaction-line').first()).toContainText(`−${money(25)}`);
  await checkA11y();
  const signCount = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;
  expect(signCount).toBeGreaterThan(registered[0]!.signCount);
  expect(await checkingOf()).toBeCloseTo(175, 2);
  expect((await signInByApi(request, DEMO_CUSTOMER)).user.account.checking).toBeCloseTo(payee.checking + 25, 2);

  // A changed amount: the passkey approves $30, the posting asks for $100 (as a tampered page
  // would); the bank refuses it, the page says why, and nothing moves.
  await fillTransfer(page, { amount: '30', to: 'Alex Morgan', accountNumber: payee.number, description: 'Book club' });
  await expect(page.getByRole('heading', { name: 'Approve this transfer' })).toBeVisible();
  await page.route('**/api/transaction/transfer', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue({ postData: JSON.stringify(body.passkeyAssertion ? { ...body, amount: '100' } : body) });
  });
  await page.getByRole('button', { name: 'Approve with passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('This approval was given for a different payment: the amount, payee or description has changed.');
  await expect(page).toHaveURL(/\/account\/transfer$/);
  await page.unroute('**/api/transaction/transfer');
  await lookAtBothWidths(page, 'approve-transfer-refused', checkA11y);
  expect(await checkingOf()).toBeCloseTo(175, 2);

  // The emailed code stays as the fallback: the same transfer, approved with a code instead.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  const after = await lastMailId(page);
  await page.getByRole('button', { name: 'Email me a code instead' }).click();
  await expect(page.getByRole('heading', { name: 'Transfer summary' })).toBeVisible();
  await page.getByLabel('IMS code').fill(await mailedCode(page, customer.email, after));
  await page.getByRole('button', { name: 'Confirm Transfer' }).click();
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await expect(page.getByTestId('transaction-line').first()).toContainText(`−${money(30)}`);
  expect(await checkingOf()).toBeCloseTo(145, 2);
});
