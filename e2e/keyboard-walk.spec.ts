import { request as requests, type Locator, type Page } from '@playwright/test';
import { awaitingApproval } from '../src/shared/contracts/approvals';
import { STAFF_INVITATION_RESENT_MESSAGE, STAFF_ROLE_CHANGE_REQUESTED_MESSAGE } from '../src/shared/contracts/staff';
import { staffCode, totpStepAt } from '../tests/support/totp';
import {
  ADMIN,
  approveAsSecondStaff,
  expect,
  fromOurPages,
  lookAtBothWidths,
  newCustomer,
  signInAs,
  staffBearerToken,
  tabTo,
  test,
  uniqueEmail,
  virtualAuthenticator,
  waitForHydration,
} from './support/fixtures';
import { queueFailingJob } from './support/jobs';
import { expectFocusVisible, focused, focusSettled } from './support/keyboard';

// The pages admin-keyboard.spec.ts does not walk, with the keyboard only (Tab, Shift+Tab, Enter,
// Space, Escape, arrows): the staff page, contact messages, background jobs, and the customer's
// security page (passkeys, the authenticator app and its recovery codes, a pending recovery).
// Every action is reached with Tab and pressed from the keyboard, its focus is visible, and after
// it (a row removed, a button busy, a form closed, a job retried) focus is somewhere, never on the
// page's body (lib/focus.ts); Escape closes an open inline form and returns to the button that
// opened it. axe on every state looked at.

const suffix = () => Math.random().toString(36).slice(2, 7);

/** Tabs to a control (from wherever focus is: a long list takes many presses) and checks that its focus shows. */
async function reach(page: Page, target: Locator, what: string): Promise<void> {
  await tabTo(page, target, 400);
  await expectFocusVisible(page, what);
}

/** Shift+Tabs back to a control nearby. */
async function reachBackwards(page: Page, target: Locator, limit = 20): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Shift+Tab');
  }
  throw new Error(`could not reach ${target} with Shift+Tab`);
}

/** After an action: focus settled on a control (its focus visible) or a heading, never the page's body. */
async function focusKept(page: Page, what: string): Promise<{ tag: string; text: string }> {
  const where = await focusSettled(page);
  if (!/^H[1-6]$/.test(where.tag)) await expectFocusVisible(page, what);
  return where;
}

/** Whether the focused element is inside `container`. */
const focusIn = (container: Locator) => container.evaluate((element) => element.contains(document.activeElement));

test('staff: invite, change a role, send a new link, suspend and reinstate with the keyboard; focus stays on the control pressed', async ({
  page,
  checkA11y,
}) => {
  test.setTimeout(180_000);
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto('/admin/staff');
  await waitForHydration(page);
  const name = `Kit Keyboard ${suffix()}`;
  const email = uniqueEmail('kit.keyboard');

  // The invitation form: fields in order, the role chosen with the arrows, sent with Enter.
  const invite = page.getByRole('form', { name: 'Invite a staff member' });
  await reach(page, invite.getByLabel('Name'), 'the invitation name');
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(invite.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(invite.getByLabel('Role')).toBeFocused();
  await expectFocusVisible(page, 'the invitation role');
  await page.keyboard.press('ArrowDown');
  await expect(invite.getByLabel('Role')).toHaveValue('compliance');
  await page.keyboard.press('Tab');
  const send = invite.getByRole('button', { name: 'Send invitation' });
  await expect(send).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(invite.getByLabel('Name')).toHaveValue('');
  // Busy while it is sent, then the same button again.
  expect(await focusKept(page, 'after the invitation')).toEqual({ tag: 'BUTTON', text: 'Send invitation' });
  // Four eyes: the second admin approves the invitation; then the member is listed, invited.
  await approveAsSecondStaff((item) => item.kind === 'staff_invitation' && String(item.summary).includes(email));
  await page.reload();
  await waitForHydration(page);
  const row = page.getByRole('table', { name: 'Staff members' }).getByTestId('staff-row').filter({ hasText: name });
  await expect(row.getByText('Invited', { exact: true })).toBeVisible();

  // A new role: the select with the arrows, then its button (enabled once the role differs).
  const role = row.getByLabel(`Role for ${name}`);
  await reach(page, role, 'the role select');
  await page.keyboard.press('ArrowDown');
  await expect(role).toHaveValue('finance');
  await page.keyboard.press('Tab');
  const change = row.getByRole('button', { name: `Change role of ${name}` });
  await expect(change).toBeFocused();
  await expectFocusVisible(page, 'Change role');
  await page.keyboard.press('Enter');
  await expect(page.getByText(awaitingApproval(STAFF_ROLE_CHANGE_REQUESTED_MESSAGE)).first()).toBeVisible();
  const afterChange = await focusKept(page, 'after Change role');
  expect(afterChange.tag).toBe('BUTTON');
  expect(await focusIn(row)).toBe(true);

  // A new invitation link (the question answered yes with Enter): focus comes back to the button.
  await reach(page, row.getByRole('button', { name: `Send ${name} a new invitation link` }), 'Send a new link');
  await page.keyboard.press('Enter');
  await expect(row.getByRole('button', { name: 'Send new link' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(STAFF_INVITATION_RESENT_MESSAGE).first()).toBeVisible();
  expect(await focusKept(page, 'after a new link')).toEqual({ tag: 'BUTTON', text: 'Send a new link' });

  // Suspend: the new link goes with the invitation, Suspend becomes Reinstate, and keeps the focus.
  await page.keyboard.press('Tab');
  await expect(row.getByRole('button', { name: `Suspend ${name}` })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(row.getByRole('button', { name: `Send ${name} a new invitation link` })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(row.getByRole('button', { name: 'Suspend', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row.getByText('Suspended', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Send ${name} a new invitation link` })).toHaveCount(0);
  expect(await focusKept(page, 'after Suspend')).toEqual({ tag: 'BUTTON', text: 'Reinstate' });
  await lookAtBothWidths(page, 'keyboard-staff-suspended', checkA11y);
  await reach(page, row.getByRole('button', { name: `Reinstate ${name}` }), 'Reinstate');
  await page.keyboard.press('Enter');
  await expect(row.getByRole('button', { name: 'Reinstate', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row.getByText('Suspended', { exact: true })).toHaveCount(0);
  expect(await focusKept(page, 'after Reinstate')).toEqual({ tag: 'BUTTON', text: 'Suspend' });
  expect(await focusIn(row)).toBe(true);
});

test('contacts: mark as read and delete with the keyboard; focus goes to the row’s other action, then to the next message', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  const subjects = [`Keyboard older ${suffix()}`, `Keyboard newer ${suffix()}`];
  for (const subject of subjects) {
    const sent = await page.request.post('/api/contacts', {
      headers: fromOurPages(),
      data: { name: 'Kay Board', email: uniqueEmail('kay.board'), subject, message: 'Walked with the keyboard' },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto('/admin/contacts');
  await waitForHydration(page);
  const table = page.getByRole('table', { name: /^Contact messages/ });
  const [older, newer] = subjects.map((subject) => table.getByTestId('contact-row').filter({ hasText: subject })) as [Locator, Locator];
  await expect(newer).toHaveCount(1);

  // Mark as read: the button goes, focus moves to the same message's Delete.
  await reach(page, newer.getByRole('button', { name: `Mark as read: ${subjects[1]}` }), 'Mark as read');
  await page.keyboard.press('Enter');
  await expect(newer.getByRole('button', { name: /^Mark as read/ })).toHaveCount(0);
  expect(await focusKept(page, 'after Mark as read')).toEqual({ tag: 'BUTTON', text: 'Delete' });
  expect(await focusIn(newer)).toBe(true);
  await checkA11y();

  // Delete (the question answered yes with Enter): the row goes, focus moves to the message that took its place.
  await page.keyboard.press('Enter');
  await expect(newer.getByRole('button', { name: 'Delete message' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(newer).toHaveCount(0);
  const afterDelete = await focusKept(page, 'after Delete');
  expect(afterDelete.tag).toBe('BUTTON');
  expect(await focusIn(older)).toBe(true);
  await lookAtBothWidths(page, 'keyboard-contacts-after-delete', checkA11y);
});

test('jobs: the Failed tab and Retry with the keyboard; focus stays on the tab, and after a retry it is kept', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  const ids = [await queueFailingJob(), await queueFailingJob()];
  await signInAs(page, ADMIN, '/admin/login');
  // The runner takes the jobs at once and they fail.
  await expect
    .poll(async () => {
      const listed = (await (await page.request.get('/api/admin/jobs?state=failed')).json()) as { data: { items: Array<{ id: string }> } };
      return ids.every((id) => listed.data.items.some((job) => job.id === id));
    })
    .toBe(true);
  await page.goto('/admin/jobs');
  await waitForHydration(page);
  const failedTab = page.getByRole('button', { name: /^Failed/ });
  await reach(page, failedTab, 'the Failed tab');
  await page.keyboard.press('Enter');
  await expect(failedTab).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/state=failed/);
  await expect(failedTab).toBeFocused();
  // Space presses a tab too: All (the last), then back with Shift+Tab to Failed.
  const allTab = page.getByRole('button', { name: 'All', exact: true });
  await reach(page, allTab, 'the All tab');
  await page.keyboard.press('Space');
  await expect(allTab).toHaveAttribute('aria-pressed', 'true');
  await expect(allTab).toBeFocused();
  await reachBackwards(page, failedTab);
  await expectFocusVisible(page, 'the Failed tab, reached with Shift+Tab');
  await page.keyboard.press('Space');
  await expect(failedTab).toHaveAttribute('aria-pressed', 'true');

  const retry = page.getByRole('button', { name: `Retry job ${ids[0]}` });
  await reach(page, retry, 'Retry');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The job will run again now.').first()).toBeVisible();
  const afterRetry = await focusKept(page, 'after Retry');
  // The retried job leaves the failed list (until it fails again): another job's Retry, or the page's heading.
  expect(['BUTTON', 'H1']).toContain(afterRetry.tag);
  await lookAtBothWidths(page, 'keyboard-jobs-after-retry', checkA11y);
});

test('security: passkeys, the authenticator app, its recovery codes and a pending recovery with the keyboard; Escape closes each form', async ({
  page,
  request,
  checkA11y,
}) => {
  test.setTimeout(180_000);
  const customer = await newCustomer(request, page, { firstName: 'Kai', lastName: `Keys${suffix()}`, prefix: 'kai.keys' });
  // Staff start a recovery (as if someone called support pretending to be the customer).
  const staff = await requests.newContext({ baseURL: test.info().project.use.baseURL });
  const started = await staff.post(`/api/user/admin/${customer.id}/recovery`, {
    headers: { authorization: `Bearer ${await staffBearerToken(staff, ADMIN)}`, ...fromOurPages() },
    data: { identityCheck: 'Phone call from an unknown number: asked for a callback' },
  });
  expect(started.status(), await started.text()).toBe(201);
  await staff.dispose();
  await virtualAuthenticator(page);
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  await page.goto('/account/security');
  await waitForHydration(page);
  const heading = (name: string) => page.getByRole('heading', { name, exact: true });

  // The pending recovery, cancelled: its section goes, focus goes to the page's heading.
  await reach(page, page.getByRole('button', { name: 'Cancel the recovery' }), 'Cancel the recovery');
  await page.keyboard.press('Enter');
  await expect(heading('Account recovery pending')).toHaveCount(0);
  await focusKept(page, 'after cancelling the recovery');
  await expect(heading('Security')).toBeFocused();

  // A passkey, named and added with Enter: focus stays in the name's field.
  const passkeyName = page.getByLabel('Passkey name (optional)');
  await reach(page, passkeyName, 'the passkey name');
  await page.keyboard.type('Desk key');
  await page.keyboard.press('Enter');
  const passkeys = page.getByRole('list', { name: 'Your passkeys' });
  await expect(passkeys.getByRole('listitem')).toContainText('Desk key');
  await expect(passkeyName).toHaveValue('');
  await expect(passkeyName).toBeFocused();

  // Rename: the form opens with focus in it; Escape closes it, changes nothing, and returns to Rename.
  const renameDesk = passkeys.getByRole('button', { name: 'Rename passkey Desk key' });
  await reach(page, renameDesk, 'Rename');
  await page.keyboard.press('Enter');
  const newName = page.getByLabel('New name');
  await expect(newName).toBeFocused();
  await page.keyboard.type(' not kept');
  await page.keyboard.press('Escape');
  await expect(newName).toHaveCount(0);
  await expect(renameDesk).toBeFocused();
  await expectFocusVisible(page, 'Rename after Escape');
  // Cancel does the same.
  await page.keyboard.press('Enter');
  await expect(newName).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(passkeys.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(renameDesk).toBeFocused();
  // Saved with Enter: the form closes, focus goes to the renamed passkey's Rename.
  await page.keyboard.press('Enter');
  await expect(newName).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Laptop key');
  await page.keyboard.press('Enter');
  await expect(passkeys.getByRole('listitem')).toContainText('Laptop key');
  expect(await focusKept(page, 'after renaming')).toEqual({ tag: 'BUTTON', text: 'Rename' });
  await expect(passkeys.getByRole('button', { name: 'Rename passkey Laptop key' })).toBeFocused();

  // Remove opens its confirmation with focus in it; Escape closes it and returns to Remove.
  const removeLaptop = passkeys.getByRole('button', { name: 'Remove passkey Laptop key' });
  await page.keyboard.press('Tab');
  await expect(removeLaptop).toBeFocused();
  await page.keyboard.press('Enter');
  const removePasskey = passkeys.getByRole('button', { name: 'Remove passkey', exact: true });
  await expect(removePasskey).toBeFocused();
  await lookAtBothWidths(page, 'keyboard-security-remove-passkey', checkA11y);
  await removePasskey.press('Escape');
  await expect(removePasskey).toHaveCount(0);
  await expect(removeLaptop).toBeFocused();

  // The authenticator app: its steps open with focus on the code's field; Escape goes back.
  const setUp = page.getByRole('button', { name: 'Set up an authenticator app' });
  await reach(page, setUp, 'Set up an authenticator app');
  await page.keyboard.press('Enter');
  const code = page.getByLabel('Code from the app');
  await expect(code).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(code).toHaveCount(0);
  await expect(setUp).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(code).toBeFocused();
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  const confirmStep = totpStepAt(new Date());
  await page.keyboard.type(staffCode(confirmStep, secret));
  await page.keyboard.press('Enter');
  // The recovery codes: their heading first; the box ticked with Space; Done with Enter.
  await expect(heading('Save your recovery codes now')).toBeFocused();
  const saved = page.getByLabel('I have saved my recovery codes');
  await reach(page, saved, 'the saved box');
  await page.keyboard.press('Space');
  await expect(saved).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Done' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
  // The codes and Done are gone: focus is on the app's section, where the reader goes on.
  await focusKept(page, 'after Done');
  await expect(heading('Authenticator app')).toBeFocused();

  // Remove the app: its confirmation asks for a fresh code, with focus on it; Escape goes back.
  const removeApp = page.getByRole('button', { name: 'Remove authenticator app' });
  await reach(page, removeApp, 'Remove authenticator app');
  await page.keyboard.press('Enter');
  const fresh = page.getByLabel('Code from your authenticator app');
  await expect(fresh).toBeFocused();
  await lookAtBothWidths(page, 'keyboard-security-remove-app', checkA11y);
  await fresh.press('Escape');
  await expect(fresh).toHaveCount(0);
  await expect(removeApp).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(fresh).toBeFocused();
  await page.keyboard.type(staffCode(confirmStep + 1, secret));
  await page.keyboard.press('Enter');
  await expect(setUp).toBeVisible();
  await focusKept(page, 'after removing the app');
  await expect(heading('Authenticator app')).toBeFocused();

  // The last passkey removed (the browser's passkey confirms it): its list goes, focus goes to the passkeys' heading.
  await reach(page, removeLaptop, 'Remove passkey');
  await page.keyboard.press('Enter');
  await expect(removePasskey).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(passkeys).toHaveCount(0);
  await focusKept(page, 'after removing the passkey');
  await expect(heading('Passkeys')).toBeFocused();
  expect(await focused(page)).toEqual({ tag: 'H3', text: 'Passkeys' });
  await lookAtBothWidths(page, 'keyboard-security-no-factor', checkA11y);
});
