import { ADMIN, approvedStaffCall, CUSTOMER_PASSWORD, expect, lookAt, newCustomer, signInAs, staffBearerToken, test, transferByApi } from './support/fixtures';

// Text one customer types is shown to another: a payment's description with a word longer than a
// phone's line (a pasted reference, a link) wraps where it is shown instead of pushing the page
// sideways and the amounts out of view (found by a QA pass at 375 px, session 41).

const LONG_WORD = `INV${'0123456789'.repeat(6)}`;

test("a payment's description with one very long word wraps on the payer's and the payee's pages", async ({ page, request, checkA11y }) => {
  test.setTimeout(150_000);
  const payee = await newCustomer(request, page, { firstName: 'Ada', lastName: `Receiver${Math.random().toString(36).slice(2, 6)}` });
  const payer = await newCustomer(page.request, page, { firstName: 'Wes', lastName: 'Payer' });
  const funded = await request.post(`/api/transaction/admin/${payer.id}`, {
    headers: { authorization: `Bearer ${await staffBearerToken(request, ADMIN)}`, 'idempotency-key': crypto.randomUUID() },
    data: { amount: 100, transactionType: 'credit', date: new Date().toISOString().slice(0, 10), description: 'Opening gift', reason: 'e2e setup' },
  });
  expect((await approvedStaffCall(funded)).status).toBe(201);
  await transferByApi(page, payer.email, {
    amount: 12.34,
    accountType: 'checking',
    accountNumber: payee.accountNumber,
    to: payee.name,
    description: `Invoice ${LONG_WORD}`,
  });

  await page.setViewportSize({ width: 375, height: 900 });
  // The payer: the dashboard's list and the history's table, the amount in view beside the words.
  for (const path of ['/account/home', '/account/transactions']) {
    await page.goto(path);
    const line = page.getByTestId('transaction-line').filter({ hasText: LONG_WORD });
    await expect(line).toBeVisible();
    await line.scrollIntoViewIfNeeded();
    await expect(line.getByText('$12.34')).toBeInViewport({ ratio: 1 });
    await lookAt(page, `long-word-payer${path.replaceAll('/', '-')}`, checkA11y);
  }

  // The payee, who never typed it: the dashboard and the notification of the money received.
  await page.context().clearCookies();
  await signInAs(page, { email: payee.email, password: CUSTOMER_PASSWORD });
  await expect(page).toHaveURL(/\/account\/home$/);
  const line = page.getByTestId('transaction-line').filter({ hasText: LONG_WORD });
  await line.scrollIntoViewIfNeeded();
  await expect(line.getByText('+$12.34')).toBeInViewport({ ratio: 1 });
  await lookAt(page, 'long-word-payee-home', checkA11y);
  await page.goto('/account/notifications');
  await expect(page.getByText(LONG_WORD).first()).toBeVisible();
  await lookAt(page, 'long-word-payee-notifications', checkA11y);
  await page.setViewportSize({ width: 1280, height: 900 });
});
