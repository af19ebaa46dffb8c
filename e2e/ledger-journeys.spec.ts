import {
  ADMIN,
  DEMO_CUSTOMER,
  DEMO_CUSTOMER_2,
  expect,
  lastMailId,
  mailedCode,
  signInAs,
  demoMoneyTest as test,
  fromOurPages,
  approveAsSecondStaff,
  tabTo,
} from './support/fixtures';

/** Sonner's rich-colour toasts fail axe's contrast check (root Toaster, reported to the lead): let them go first. */
async function noToasts(page: import('@playwright/test').Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

const money = (dollars: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);

async function accountOf(request: import('@playwright/test').APIRequestContext, user: { email: string; password: string }) {
  const response = await request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { token: string; user: { account: { number: string; savings: number; checking: number } } } };
  return data;
}

test.describe('money journeys', () => {
  test('internal transfer between own accounts shows in balances and history', async ({ page, checkA11y, request }) => {
    const before = (await accountOf(request, DEMO_CUSTOMER)).user.account;
    await signInAs(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/account\/home$/);
    await expect(page.getByTestId('savings-balance')).toHaveText(money(before.savings));
    await expect(page.getByRole('heading', { name: 'Transaction history' })).toBeVisible();
    await checkA11y();

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy account number' }).click();
    await expect(page.getByText('Account number copied to clipboard')).toBeVisible();

    await page.getByRole('link', { name: /Inter Account/ }).click();
    await expect(page).toHaveURL(/\/account\/internal_transfer$/);
    await noToasts(page);
    await checkA11y();
    await page.getByLabel('From').selectOption('savings');
    await page.getByLabel('To').selectOption('savings');
    await page.getByLabel('Amount (USD)').fill('25');
    await page.getByRole('button', { name: 'Transfer' }).click();
    await expect(page.getByRole('alert')).toHaveText('You cannot transfer to the same account');
    await page.getByLabel('To').selectOption('checking');
    await page.getByLabel('Amount (USD)').fill('0');
    await page.getByRole('button', { name: 'Transfer' }).click();
    await expect(page.getByRole('alert')).toHaveText('Amount must be greater than 0');
    await page.getByLabel('Amount (USD)').fill('25.50');
    await page.getByLabel('Amount (USD)').press('Enter');
    await expect(page.getByText('Transfer Successful')).toBeVisible();
    await expect(page).toHaveURL(/\/account\/transactions$/);
    // The button that sent it is gone with its page: focus starts at the new page's heading, not at the document's top.
    await expect(page.locator('#main h1')).toBeFocused();
    const first = page.getByTestId('transaction-line').first();
    await expect(first).toContainText('Transfer from savings to checking');
    await expect(first).toContainText('Between your accounts');
    await noToasts(page);
    await checkA11y();

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('savings-balance')).toHaveText(money(before.savings - 25.5));
    await expect(page.getByTestId('checking-balance')).toHaveText(money(before.checking + 25.5));
  });

  test('transfer to another customer with the emailed IMS code', async ({ page, checkA11y, request }) => {
    const payee = (await accountOf(request, DEMO_CUSTOMER_2)).user.account;
    const sender = (await accountOf(request, DEMO_CUSTOMER)).user.account;
    await signInAs(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/account\/home$/);
    await page.goto('/account/transfers');
    await checkA11y();
    await page.getByRole('link', { name: /Money Transfer/ }).click();
    await expect(page).toHaveURL(/\/account\/transfer$/);
    await checkA11y();

    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill all fields');
    await page.getByLabel('From account').selectOption('checking');
    await page.getByLabel('Amount (USD)').fill('40');
    // A slip in the name: the summary says whose account it is (confirmation of payee, ADR 029),
    // and "Use Jamie Lee" goes back to the form with the holder's name, ready to continue.
    await page.getByLabel('Recipient name').fill('Jamie Lea');
    await page.getByLabel('Account number').fill(payee.number);
    await page.getByLabel('Description (optional)').fill('Concert tickets');
    const after = await lastMailId(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Transfer summary' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'The name is close, but this account is held by Jamie Lee.' })).toBeVisible();
    await checkA11y();
    await tabTo(page, page.getByRole('button', { name: 'Use Jamie Lee' }));
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Recipient name')).toHaveValue('Jamie Lee');
    await expect(page.getByLabel('Recipient name')).toBeFocused();
    await expect(page.getByLabel('Description (optional)')).toHaveValue('Concert tickets');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('heading', { name: 'Transfer summary' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: "The name matches the account holder's name." })).toBeVisible();
    await expect(page.getByText(/It is free, valid until .* and works only for this transfer/)).toBeVisible();
    await checkA11y();
    // Back returns to the form with the values kept.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Recipient name')).toHaveValue('Jamie Lee');
    await page.getByRole('button', { name: 'Continue' }).click();
    // So does the browser's Back: the form as it was filled in, not the page before it.
    await expect(page.getByRole('heading', { name: 'Transfer summary' })).toBeVisible();
    const formAddress = page.url();
    await page.goBack();
    expect(page.url()).toBe(formAddress);
    await expect(page.getByLabel('Recipient name')).toHaveValue('Jamie Lee');
    await expect(page.getByLabel('Description (optional)')).toHaveValue('Concert tickets');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expect(page.getByText('Please enter IMS code')).toBeVisible();
    // A wrong code: the bank's answer. Then a half-typed one: only the field's own message, the
    // bank's answer about the earlier code gone (it was about a code no longer in the field).
    const code = await mailedCode(page, DEMO_CUSTOMER.email, after);
    const pin = page.getByLabel('IMS code');
    const confirmForm = page.getByRole('form', { name: 'Confirm transfer' });
    await pin.fill(code.replace(/.$/, (last) => String((Number(last) + 1) % 10)));
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expect(confirmForm.getByRole('alert')).toHaveText('The IMS code is not correct. 4 attempts left.');
    await pin.fill('');
    await pin.pressSequentially('12ab');
    await expect(pin).toHaveValue('12');
    await expect(pin).toHaveAccessibleDescription(/^The IMS code is 6 digits/);
    await expect(confirmForm.getByText('The IMS code is not correct.', { exact: false })).toHaveCount(0);
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expect(pin).toHaveAccessibleDescription(/^The IMS code is 6 digits/);
    await expect(confirmForm.getByText('The IMS code is not correct.', { exact: false })).toHaveCount(0);
    await page.setViewportSize({ width: 375, height: 900 });
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath('transfer-code-refused-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await pin.fill(code);
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expect(page).toHaveURL(/\/account\/transactions$/);
    await expect(page.getByRole('status').filter({ hasText: 'Transfer Successful' })).toBeVisible();
    await noToasts(page);
    await checkA11y();

    const payeeAfter = (await accountOf(request, DEMO_CUSTOMER_2)).user.account;
    expect(payeeAfter.checking).toBeCloseTo(payee.checking + 40, 2);
    // The payee of a completed transfer can be saved, and then appears among the beneficiaries.
    await page.getByRole('button', { name: 'Save Jamie Lee as payee' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^(Beneficiary saved|This beneficiary is already saved)$/ })).toBeVisible();
    await page.goto('/account/beneficiaries');
    await expect(page.getByText('Jamie Lee').first()).toBeVisible();
    await page.goto('/account/transactions');
    await expect(page.getByTestId('transaction-line').first()).toContainText('Concert tickets');
    await expect(page.getByTestId('transaction-line').first()).toContainText(`−${money(40)}`);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('checking-balance')).toHaveText(money(sender.checking - 40));
  });

  test('an admin credit that the customer then sees labelled as an adjustment', async ({ browser, checkA11y }) => {
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, ADMIN, '/admin/login');
    await expect(adminPage).toHaveURL(/\/admin\/dashboard$/);
    await adminPage.goto('/admin/transactions/add-transactions');
    await expect(adminPage.getByRole('heading', { name: 'Add Transaction' })).toBeVisible();
    await checkA11y(adminPage);
    await adminPage.getByRole('button', { name: 'Add Transaction' }).click();
    await expect(adminPage.getByRole('alert')).toHaveText('All fields are required');
    const option = adminPage.locator('option', { hasText: DEMO_CUSTOMER_2.email });
    await expect(option).toHaveCount(1);
    await adminPage.getByLabel('Customer').selectOption((await option.getAttribute('value')) ?? '');
    await adminPage.getByLabel('Amount (USD)').fill('75');
    await adminPage.getByLabel('Type').selectOption('credit');
    // A value date in the past (staff may date an entry within a year of today); the booking time stays now.
    const valueDate = new Date(Date.now() - 22 * 86_400_000);
    await adminPage.getByLabel('Value date').fill(valueDate.toISOString().slice(0, 10));
    await adminPage.getByLabel('Description').fill('Fee refund');
    await adminPage.getByLabel('Reason').fill('Refund of a wrongly charged fee, ticket 311');
    await adminPage.getByRole('button', { name: 'Add Transaction' }).click();
    await expect(adminPage.getByRole('status').filter({ hasText: 'Credit requested - awaiting approval by a second staff member' })).toBeVisible();
    // Four eyes (ADR 023): the second staff member approves it; only then is it posted.
    const posted = await approveAsSecondStaff((item) => item.kind === 'staff_entry' && item.payload.description === 'Fee refund');
    expect(posted.status).toBe(201);
    await noToasts(adminPage);
    await checkA11y(adminPage);
    await adminPage.getByRole('link', { name: 'View this customer’s transactions' }).click();
    await expect(adminPage.getByRole('columnheader', { name: 'S/N' })).toBeVisible();
    await expect(adminPage.getByTestId('admin-transaction-row').first()).toContainText('Fee refund');
    await checkA11y(adminPage);
    await adminContext.close();

    const customerContext = await browser.newContext();
    const page = await customerContext.newPage();
    await signInAs(page, DEMO_CUSTOMER_2);
    await expect(page).toHaveURL(/\/account\/home$/);
    const line = page.getByTestId('transaction-line').filter({ hasText: 'Fee refund' });
    await expect(line).toContainText('Adjustment');
    await expect(line).toContainText(valueDate.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }));
    await expect(line).toContainText(/Booked /);
    await expect(line).toContainText(`+${money(75)}`);
    await checkA11y(page);
    await customerContext.close();
  });

  test('wire transfer abroad with the code step', async ({ page, checkA11y }) => {
    await signInAs(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/account\/home$/);
    await page.goto('/account/domestic_transfer');
    await expect(page.getByRole('heading', { name: 'Wire Transfer' })).toBeVisible();
    await checkA11y();
    await page.getByLabel('From account').selectOption('savings');
    await page.getByLabel('Amount (USD)').fill('300');
    await page.getByLabel('Beneficiary name').fill('Hans Muster');
    await page.getByLabel('Beneficiary account (IBAN or account number)').fill('DE89370400440532013000');
    await page.getByLabel('Bank name').fill('Commerzbank');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByLabel('SWIFT/BIC code').fill('COBADEFF');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill all fields');
    await page.getByLabel('Account type').selectOption('CURRENT');
    await page.getByLabel('SWIFT/BIC code').fill('CHASUS33');
    const after = await lastMailId(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText('another country');
    await page.getByLabel('SWIFT/BIC code').fill('COBADEFF');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Transfer summary' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'We cannot check the name on an account at another bank.' })).toBeVisible();
    await checkA11y();
    await page.getByLabel('IMS code').fill(await mailedCode(page, DEMO_CUSTOMER.email, after));
    await page.getByRole('button', { name: 'Confirm Transfer' }).click();
    await expect(page).toHaveURL(/\/account\/transactions$/);
    await expect(page.getByRole('status').filter({ hasText: 'Transfer Successful' })).toBeVisible();
    await expect(page.getByTestId('transaction-line').first()).toContainText('Wire to Hans Muster');
  });

  test('staff correct a balance with a reason, then reverse the correction; the balance is back', async ({ browser, checkA11y, request }) => {
    const jamie = await accountOf(request, DEMO_CUSTOMER_2);
    const me = await request.get('/api/user/me', { headers: { authorization: `Bearer ${jamie.token}` } });
    const userId = ((await me.json()) as { data: { _id: string } }).data._id;
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, ADMIN, '/admin/login');
    await expect(adminPage).toHaveURL(/\/admin\/dashboard$/);
    await adminPage.goto(`/admin/users/account/${userId}`);
    await expect(adminPage.getByRole('heading', { name: 'Edit Account Info' })).toBeVisible();
    await expect(adminPage.getByLabel('Account number')).toHaveValue(jamie.user.account.number);
    await checkA11y(adminPage);
    await adminPage.getByLabel('Savings (USD)').fill(String(jamie.user.account.savings + 100));
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage.getByRole('alert')).toContainText('reason is required');
    await adminPage.getByLabel('Reason').fill('Interest correction, ticket 77');
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage.getByText('Balance correction requested - awaiting approval by a second staff member').first()).toBeVisible();
    await expect(adminPage).toHaveURL(new RegExp(`/admin/users/${userId}$`));
    // Four eyes (ADR 023): the second staff member approves the correction; only then is it posted.
    expect((await approveAsSecondStaff((item) => item.kind === 'balance_correction' && item.payload.reason === 'Interest correction, ticket 77')).status).toBe(
      200,
    );

    await adminPage.goto(`/admin/transactions/${userId}`);
    const row = adminPage.getByTestId('admin-transaction-row').first();
    await expect(row).toContainText('Balance correction');
    await noToasts(adminPage);
    await checkA11y(adminPage);
    await row.getByRole('button', { name: /^Delete/ }).click();
    await expect(adminPage.getByText('Do you really want to delete this transaction?')).toBeVisible();
    await adminPage.getByRole('textbox', { name: 'Reason' }).fill('Posted twice by mistake');
    await adminPage.getByRole('button', { name: 'Yes, reverse it' }).click();
    await expect(adminPage.getByText('Reversal requested - awaiting approval by a second staff member').first()).toBeVisible();
    await approveAsSecondStaff((item) => item.kind === 'reversal' && item.payload.reason === 'Posted twice by mistake');
    await adminPage.reload();
    await expect(adminPage.getByTestId('admin-transaction-row').first()).toContainText('Reversal: Balance correction');
    await expect(adminPage.getByTestId('admin-transaction-row').nth(1)).toContainText('Reversed');
    await noToasts(adminPage);
    await checkA11y(adminPage);
    await adminContext.close();

    const after = (await accountOf(request, DEMO_CUSTOMER_2)).user.account;
    expect(after.savings).toBeCloseTo(jamie.user.account.savings, 2);
  });
});
