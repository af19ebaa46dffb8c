import { ADMIN, DEMO_CUSTOMER_2, expect, fromOurPages, newCustomer, signInAs, tabTo, test } from './support/fixtures';

// Two defects of the customer area, each fixed with the journey that shows it:
// - the transactions filter had no submit button: a keyboard or screen-reader user could not
//   apply it deliberately;
// - a blocked customer learnt it only when a payment failed: the dashboard now says so, with how
//   to reach support.

test('the transactions filter is applied and reset with the keyboard, and the address keeps it', async ({ page, checkA11y }) => {
  await signInAs(page, DEMO_CUSTOMER_2);
  await expect(page).toHaveURL(/\/account\/home$/);
  // An unblocked customer sees no block notice.
  await expect(page.getByTestId('blocked-notice')).toHaveCount(0);
  await page.goto('/account/transactions');
  const filter = page.getByRole('form', { name: 'Filter transactions' });
  await expect(filter.getByRole('button', { name: 'Filter' })).toHaveAttribute('type', 'submit');
  await checkA11y();

  const lines = page.getByTestId('transaction-line');
  await expect(lines.first()).toBeVisible();
  const type = filter.getByLabel('Type');
  await tabTo(page, type);
  await page.keyboard.press('ArrowDown');
  await expect(type).toHaveValue('credit');
  // Choosing is not applying: the list changes only when the customer submits.
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await tabTo(page, filter.getByRole('button', { name: 'Filter' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/transactions\?type=credit$/);
  await expect(lines.first()).toBeVisible();
  for (const line of await lines.all()) await expect(line).toContainText('+$');

  // A reload shows the same filtered list; Reset shows everything again.
  await page.reload();
  await expect(page.getByRole('form', { name: 'Filter transactions' }).getByLabel('Type')).toHaveValue('credit');
  await tabTo(page, page.getByRole('button', { name: 'Reset' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await expect(page.getByRole('form', { name: 'Filter transactions' }).getByLabel('Type')).toHaveValue('');

  // Enter in a date field applies too; an impossible range is refused in place.
  const from = page.getByRole('form', { name: 'Filter transactions' }).getByLabel('From', { exact: true });
  const to = page.getByRole('form', { name: 'Filter transactions' }).getByLabel('To', { exact: true });
  await from.fill('2026-03-10');
  await to.fill('2026-03-01');
  await to.press('Enter');
  await expect(page.getByText('"From" must be on or before "To"')).toBeVisible();
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await checkA11y();
});

test('a blocked customer is told on the dashboard, with how to reach support', async ({ page, browser, request, checkA11y }) => {
  const customer = await newCustomer(request, page, { firstName: 'Blair', lastName: 'Stopped', prefix: 'blocked' });

  // Staff block the customer (the back office's call, as the admin journey makes it through the form).
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInAs(admin, ADMIN, '/admin/login');
  await expect(admin).toHaveURL(/\/admin\/dashboard$/);
  const blocked = await admin.request.put(`/api/user/admin/${customer.id}`, {
    headers: fromOurPages(),
    data: {
      firstName: 'Blair',
      lastName: 'Stopped',
      email: customer.email,
      phone: '+1 202 555 0177',
      location: { address: '3 Hold Street, Springfield', state: 'Ohio' },
      verificationStatus: 'awaiting',
      isBlocked: true,
      isAccountDisabled: false,
    },
  });
  expect(blocked.status(), await blocked.text()).toBe(200);
  await staff.close();

  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  const notice = page.getByRole('region', { name: 'Your account is blocked from sending money' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('refused until the bank lifts the block');
  await expect(notice.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await checkA11y();

  // The way to support is one keyboard step away.
  const support = notice.getByRole('link', { name: 'Support page' });
  await tabTo(page, support);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/support$/);
  await expect(page.getByRole('heading', { name: 'Support', level: 1 })).toBeVisible();
});
