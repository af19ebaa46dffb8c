import type { Page } from '@playwright/test';
import {
  ADMIN,
  expect,
  fromOurPages,
  lookAtBothWidths,
  newCustomer,
  newStaffMember,
  signInAs,
  signInAsStaff,
  staffBearerToken,
  test,
  uniqueEmail,
} from './support/fixtures';

// What each staff role is offered (issue 15, ADR 022): the back office shows a role the pages it
// may read and the actions its routes admit, nothing the server would refuse with 403. Support and
// finance walk the same pages; each is signed in as a staff member of that role made through the API.

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Back office' }).first();

test('support is offered customers, contacts, sessions and recovery, and reads money without acting on it', async ({ page, request, checkA11y }) => {
  test.setTimeout(240_000);
  const customer = await newCustomer(request, page, { prefix: 'roles-support' });
  await page.context().clearCookies();
  await signInAsStaff(page, 'support');

  await expect(sidebar(page).getByRole('link')).toHaveText([
    'Dashboard',
    'Users',
    'Journal',
    'General ledger',
    'Loans',
    'Card requests',
    'Contacts',
    'Security',
  ]);
  // The dashboard's figures link only where support may go: no identity reviews.
  const figures = page.getByRole('main');
  await expect(figures.getByRole('link', { name: /Identity reviews/ })).toHaveCount(0);
  await expect(figures.getByText('Pending KYC reviews')).toHaveCount(0);
  await expect(figures.getByRole('link', { name: /Loan applications/ })).toBeVisible();
  await expect(figures.getByRole('link', { name: /Contact messages/ })).toBeVisible();
  await lookAtBothWidths(page, 'roles-support-dashboard', checkA11y);

  // The customer's page: details and recovery are support's; money, identity decisions, closing and the audit log are not.
  await page.goto(`/admin/users/${customer.id}`);
  await expect(page.getByRole('heading', { name: customer.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit user' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Transactions', exact: true })).toBeVisible();
  for (const absent of ['Edit account info', 'Balance at a date', 'Audit log']) await expect(page.getByRole('link', { name: absent })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start recovery' })).toBeVisible();
  await lookAtBothWidths(page, 'roles-support-customer', checkA11y);

  // Editing: the details are editable, the verification status, block and access shown read-only.
  await page.getByRole('link', { name: 'Edit user' }).click();
  await expect(page.getByLabel('First name')).toBeEditable();
  await expect(page.getByLabel('Verification status')).toBeDisabled();
  await expect(page.getByLabel('Blocked')).toBeDisabled();
  await expect(page.getByLabel('Disabled')).toBeDisabled();
  await page.getByLabel('Phone').fill('+1 202 555 0199');
  // Every field is required (the spec's rule); this journey's customer signed up without a state.
  await page.getByLabel('State').fill('IL');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));
  await expect(page.getByText('+1 202 555 0199')).toBeVisible();

  // A staff member's page (staff are listed among the users): an admin's to change, so support is
  // offered neither editing nor ending their sessions (the server answers 403 too).
  const staffToken = await staffBearerToken(request);
  const admin = (
    await (await request.get(`/api/user/admin/email/${encodeURIComponent(ADMIN.email)}`, { headers: { authorization: `Bearer ${staffToken}` } })).json()
  ).data as { _id: string };
  await page.goto(`/admin/users/${admin._id}`);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit user' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^End session/ })).toHaveCount(0);

  // Their transactions: read, with nothing to add, reverse or correct.
  await page.goto(`/admin/transactions/${customer.id}`);
  await expect(page.getByRole('heading', { name: /^Transactions of/, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Transaction' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit account' })).toHaveCount(0);

  // Reads of money: the loan queue and the general ledger, without deciding, verifying or anchoring.
  await sidebar(page).getByRole('link', { name: 'Loans' }).click();
  await expect(page.getByRole('heading', { name: 'Loan applications', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Approve and disburse/ })).toHaveCount(0);
  await sidebar(page).getByRole('link', { name: 'General ledger' }).click();
  await expect(page.getByRole('heading', { name: 'General ledger', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Hash chain' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verify the ledger' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Anchor now' })).toHaveCount(0);
  await lookAtBothWidths(page, 'roles-support-ledger', checkA11y);

  // A page support may not read, typed in: the dashboard, not a 403.
  for (const path of ['/admin/kyc', '/admin/reports', '/admin/approvals', `/admin/users/account/${customer.id}`]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/admin\/dashboard$/);
  }
});

test('finance is offered money, the books and the queue, and reads customers without editing them', async ({ page, request, checkA11y }) => {
  test.setTimeout(240_000);
  const customer = await newCustomer(request, page, { prefix: 'roles-finance' });
  await page.context().clearCookies();
  await signInAsStaff(page, 'finance');

  await expect(sidebar(page).getByRole('link')).toHaveText([
    'Dashboard',
    'Users',
    'Journal',
    'General ledger',
    'Reports',
    'Add Transaction',
    /^Approvals/,
    'Loans',
    'Background jobs',
    'Security',
  ]);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: /Identity reviews/ })).toHaveCount(0);
  await expect(main.getByRole('link', { name: /Contact messages/ })).toHaveCount(0);
  await expect(main.getByRole('link', { name: /Loan applications/ })).toBeVisible();
  await lookAtBothWidths(page, 'roles-finance-dashboard', checkA11y);

  // The customer's page: money is finance's; editing details, sessions, recovery, closing and the audit log are not.
  await page.goto(`/admin/users/${customer.id}`);
  await expect(page.getByRole('heading', { name: customer.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit account info' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Balance at a date' })).toBeVisible();
  for (const absent of ['Edit user', 'Audit log']) await expect(page.getByRole('link', { name: absent })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start recovery' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^End session/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Basic info' })).toBeVisible();
  await lookAtBothWidths(page, 'roles-finance-customer', checkA11y);

  await page.getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Add Transaction' }).last()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit account' })).toBeVisible();

  // The general ledger with its verification and anchors.
  await sidebar(page).getByRole('link', { name: 'General ledger' }).click();
  await expect(page.getByRole('button', { name: 'Verify the ledger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Anchor now' })).toBeVisible();

  for (const path of ['/admin/kyc', '/admin/contacts', '/admin/audit', '/admin/staff', `/admin/users/edit/${customer.id}`]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/admin\/dashboard$/);
  }
});

test('the admin a pending role change is about is offered no Approve or Reject for it, as the server refuses them (403)', async ({
  page,
  request,
  checkA11y,
}) => {
  test.setTimeout(240_000);
  const subject = await newStaffMember('admin', `Sol Subject ${Math.random().toString(36).slice(2, 7)}`);
  // The first admin asks to make them support, and invites someone else: both wait for a second admin.
  const admin = { authorization: `Bearer ${await staffBearerToken(request, ADMIN)}`, ...fromOurPages() };
  const demote = await request.put(`/api/admin/staff/${subject.id}`, { headers: admin, data: { staffRole: 'support' } });
  expect(demote.status(), await demote.text()).toBe(202);
  const demotionId = (await demote.json()).data.approvalId as string;
  const inviteeEmail = uniqueEmail('roles-invitee');
  const invite = await request.post('/api/admin/staff', { headers: admin, data: { name: 'Ira Invitee', email: inviteeEmail, staffRole: 'support' } });
  expect(invite.status(), await invite.text()).toBe(202);
  const invitationId = (await invite.json()).data.approvalId as string;

  try {
    await signInAs(page, subject, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await sidebar(page)
      .getByRole('link', { name: /^Approvals/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();

    // The change about them: shown, with why they cannot decide it, and no buttons.
    const aboutMe = page.getByTestId('approval-row').filter({ hasText: `Change ${subject.name}'s role from Admin to Support` });
    await expect(aboutMe).toHaveCount(1);
    await expect(aboutMe).toContainText('This change is about you: another staff member must approve it.');
    await expect(aboutMe.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(aboutMe.getByRole('button', { name: /^Reject/ })).toHaveCount(0);
    // Someone else's request of the same admin's kind: this admin may decide it, and is offered both.
    const other = page.getByTestId('approval-row').filter({ hasText: inviteeEmail });
    await expect(other.getByRole('button', { name: /^Approve the staff invitation/ })).toBeVisible();
    await expect(other.getByRole('button', { name: /^Reject the staff invitation/ })).toBeVisible();
    await lookAtBothWidths(page, 'approvals-subject', checkA11y);
    await page.setViewportSize({ width: 375, height: 900 });
    await expect(aboutMe).toContainText('This change is about you: another staff member must approve it.');
    await expect(aboutMe.getByRole('button')).toHaveCount(0);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The server's answer to them is the same rule: 403, and the request stays pending.
    const approve = await page.request.post(`/api/admin/approvals/${demotionId}/approve`, { headers: fromOurPages() });
    expect(approve.status()).toBe(403);
    expect((await approve.json()).message).toBe('This change is about you: another staff member must approve it.');
    const reject = await page.request.post(`/api/admin/approvals/${demotionId}/reject`, { headers: fromOurPages(), data: { reason: 'Not me' } });
    expect(reject.status()).toBe(403);
    await page.reload();
    await expect(aboutMe).toContainText('Pending');
  } finally {
    for (const id of [demotionId, invitationId]) {
      const cancelled = await request.post(`/api/admin/approvals/${id}/cancel`, { headers: admin });
      expect(cancelled.status(), await cancelled.text()).toBe(200);
    }
  }
});
