import { staffCode, totpStepAt } from '../tests/support/totp';
import {
  ADMIN,
  approveAsSecondStaff,
  enterAuthenticatorCode,
  expect,
  lookAtBothWidths,
  mailedText,
  signInAs,
  test,
  uniqueEmail,
  waitForHydration,
} from './support/fixtures';

// Staff roles (issue 15, ADR 022): an admin invites a support staff member from /admin/staff and
// sends a new link (the first stops working); the invitee sets a password from the new link, enrols an authenticator app at first sign-in,
// signs in with it, and sees only what support may use; a finance call is refused.

test('an admin invites a support staff member, who sets a password, enrols TOTP, signs in and sees only support', async ({ page, browser, checkA11y }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('support');
  const name = 'Sky Support';

  await signInAs(page, ADMIN, '/admin/login');
  const adminNav = page.getByRole('navigation', { name: 'Back office' }).first();
  await adminNav.getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Staff - .+ back office$/);

  const invite = page.getByRole('form', { name: 'Invite a staff member' });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite.getByRole('alert').filter({ hasText: 'Name is required' })).toBeVisible();
  await invite.getByLabel('Name').fill(name);
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Role', { exact: true }).selectOption('support');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  // Four eyes (ADR 023): the invitation waits for a second admin, who approves it from the queue.
  await expect(page.getByText('Invitation requested - awaiting approval by a second staff member').first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
  const outcome = await approveAsSecondStaff((item) => item.kind === 'staff_invitation' && String(item.summary).includes(email));
  expect(outcome.status).toBe(201);
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Support');
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Never');
  await lookAtBothWidths(page, 'admin-staff', checkA11y);
  // At 375 px each staff member is a card with its actions in view.
  await page.setViewportSize({ width: 375, height: 900 });
  const card = page.getByRole('row').filter({ hasText: email });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('button', { name: `Suspend ${name}` })).toBeInViewport({ ratio: 1 });
  await expect(card.getByRole('button', { name: `Change role of ${name}` })).toBeInViewport({ ratio: 1 });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The first link arrives; the admin sends a new one from the list (the invitee lost the mail,
  // say): a confirmation, a second mail with a link of its own, and the first link no longer works.
  const invitationLink = (text: string) => text.match(/(\/admin\/invitation\?token=[A-Za-z0-9_-]+)/)?.[1];
  const firstLink = invitationLink(await mailedText(page, email, /\/admin\/invitation\?token=/));
  expect(firstLink).toBeTruthy();
  await row.getByRole('button', { name: `Send ${name} a new invitation link` }).click();
  const question = row.getByRole('alertdialog', { name: `Send ${name} a new invitation link? The earlier link stops working.` });
  await lookAtBothWidths(page, 'confirm-resend-invitation', checkA11y);
  await question.getByRole('button', { name: 'Send new link' }).click();
  await expect(page.getByText('Invitation sent again: the new link works for 7 days and the earlier one no longer works.').first()).toBeVisible();
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Link works until');
  // The new mail leaves through the outbox job: the newest mail to the invitee carries another link.
  let link: string | undefined;
  await expect.poll(async () => (link = invitationLink(await mailedText(page, email, /\/admin\/invitation\?token=/))), { timeout: 20_000 }).not.toBe(firstLink);
  expect(link).toBeTruthy();

  // The invitee, in a browser of their own: the first link is refused, the new one works.
  const context = await browser.newContext();
  const invitee = await context.newPage();
  const password = 'Quiet-Lantern-Harbor-88';
  await invitee.goto(firstLink!);
  await waitForHydration(invitee);
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByLabel('Confirm password', { exact: true }).fill(password);
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByText('This invitation link is invalid or has expired. Ask an administrator for a new one.')).toBeVisible();
  await expect(invitee).toHaveURL(/\/admin\/invitation\?token=/);
  await invitee.goto(link!);
  await waitForHydration(invitee);
  await expect(invitee.getByRole('heading', { name: 'Set your staff password' })).toBeVisible();
  await expect(invitee).toHaveTitle(/^Set your staff password - .+ back office$/);
  await lookAtBothWidths(invitee, 'staff-invitation', checkA11y);
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByLabel('Confirm password', { exact: true }).fill(password);
  // The same fields as the password reset's (NewPasswordFields), filled in, with the strength meter.
  await expect(invitee.getByTestId('password-strength')).toContainText('Password strength:');
  await lookAtBothWidths(invitee, 'staff-invitation-filled', checkA11y);
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee).toHaveURL(/\/admin\/login$/);
  await expect(invitee.getByText('Your password is set. Sign in to the back office and set up your second factor.')).toBeVisible();

  // First sign-in: the enrolment page only, then an authenticator app.
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByRole('button', { name: 'Login' }).click();
  await expect(invitee).toHaveURL(/\/admin\/security$/);
  await invitee.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await invitee.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  await invitee.getByLabel('Code from the app').fill(staffCode(totpStepAt(new Date()), secret));
  await invitee.getByRole('button', { name: 'Turn on' }).click();
  await invitee.getByLabel('I have saved my recovery codes').check();
  await invitee.getByRole('button', { name: 'Done' }).click();

  // Out, and in again with password and code, as every later day.
  await invitee.getByRole('button', { name: 'Logout' }).first().click();
  // Logout loads the home page anew: wait for it before opening the staff login.
  await expect(invitee).toHaveURL(/\/$/);
  await waitForHydration(invitee);
  await invitee.goto('/admin/login');
  await waitForHydration(invitee);
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel('Password', { exact: true }).fill(password);
  await invitee.getByRole('button', { name: 'Login' }).click();
  await enterAuthenticatorCode(invitee, secret);
  await expect(invitee).toHaveURL(/\/admin\/dashboard$/);

  // Support sees the links of support, and nothing else.
  const nav = invitee.getByRole('navigation', { name: 'Back office' }).first();
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Users', 'Journal', 'General ledger', 'Loans', 'Card requests', 'Contacts', 'Security']);
  await lookAtBothWidths(invitee, 'support-dashboard', checkA11y);
  // A finance call is refused with the role named; the staff page sends support back to the dashboard.
  const report = await invitee.request.get('/api/admin/reports/days');
  expect(report.status()).toBe(403);
  expect(await report.json()).toMatchObject({ message: 'Your role (Support) cannot do this: it needs Finance or Admin.' });
  await invitee.goto('/admin/staff');
  await expect(invitee).toHaveURL(/\/admin\/dashboard$/);
  const me = await (await invitee.request.get('/api/auth/user')).json();
  expect(me.data).toMatchObject({ email, isAdmin: true, staffRole: 'support' });
  await context.close();

  // The admin's list now shows them active, with a second factor.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Active');
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Yes');
});
