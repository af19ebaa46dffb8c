import type { Page } from '@playwright/test';
import { bankDate } from '../src/server/lib/bank-time';
import { ADMIN, ADMIN2, DEMO_CUSTOMER, expect, fromOurPages, lookAtBothWidths, newCustomer, signInAs, staffBearerToken, test } from './support/fixtures';
import { focusSettled, press } from './support/keyboard';

// The back office with the keyboard only: after an action pressed with Enter, focus lands on the
// button that remains, the action of the row that took the row's place, or the page's heading,
// never on the page's body; Escape cancels an inline confirmation, changes nothing, and puts focus
// back on the button that opened it.

/** Staff credits for `customerId` that wait for a second staff member (four eyes): their approval ids. */
async function pendingCredits(page: Page, customerId: string, count: number): Promise<string[]> {
  const headers = { authorization: `Bearer ${await staffBearerToken(page.request, ADMIN)}`, ...fromOurPages() };
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const credit = await page.request.post(`/api/transaction/admin/${customerId}`, {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: {
        amount: 10 + index,
        transactionType: 'credit',
        date: bankDate(new Date(), 'UTC'),
        description: `Keyboard credit ${index + 1}`,
        reason: 'Keyboard journey',
      },
    });
    expect(credit.status(), await credit.text()).toBe(202);
    ids.push((await credit.json()).data.approvalId as string);
  }
  return ids;
}

test('approvals: Escape cancels a rejection; after approve and reject focus goes to the next request', async ({ page, checkA11y }) => {
  test.setTimeout(180_000);
  const customer = await newCustomer(page.request, page);
  const ids = await pendingCredits(page, customer.id, 3);
  await page.context().clearCookies();
  await signInAs(page, ADMIN2, '/admin/login');
  await page.goto('/admin/approvals');
  const rows = page.getByTestId('approval-row').filter({ hasText: customer.name });
  await expect(rows).toHaveCount(3);

  // Reject opens the reason form with focus in it; Escape closes it and focus is back on Reject.
  const reject = rows.first().getByRole('button', { name: /^Reject/ });
  await press(reject);
  const reason = rows.first().getByRole('textbox', { name: /Reason for rejecting/ });
  await expect(reason).toBeFocused();
  await page.keyboard.type('Not this one');
  await lookAtBothWidths(page, 'approvals-reason-open', checkA11y);
  await reason.focus();
  await page.keyboard.press('Escape');
  await expect(reason).toHaveCount(0);
  await expect(reject).toBeFocused();
  const stillPending = await page.request.get('/api/admin/approvals?status=pending&pageSize=100');
  const pendingIds = ((await stillPending.json()).data.items as Array<{ id: string }>).map((item) => item.id);
  for (const id of ids) expect(pendingIds).toContain(id);

  // Approve with Enter: the question opens with focus on its Approve, a second Enter approves; the
  // row leaves the pending list, focus goes to the next request's action.
  await press(rows.first().getByRole('button', { name: /^Approve/ }));
  const question = rows.first().getByRole('alertdialog', { name: /^Approve the credit or debit: .* It takes effect now\.$/ });
  await expect(question.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(2);
  const afterApprove = await focusSettled(page);
  expect(afterApprove.tag).toBe('BUTTON');
  expect(afterApprove.text).toMatch(/^Approve the credit/);
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="approval-row"]'))).toBe(true);

  // Reject with a reason, sent with Enter: the same.
  await press(rows.first().getByRole('button', { name: /^Reject/ }));
  await page.keyboard.type('Duplicate request');
  await page.keyboard.press('Tab');
  await expect(rows.first().getByRole('button', { name: 'Confirm rejection' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(1);
  const afterReject = await focusSettled(page);
  expect(afterReject.tag).toBe('BUTTON');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="approval-row"]'))).toBe(true);
  await lookAtBothWidths(page, 'approvals-after-reject', checkA11y);
});

test('delete user: Escape cancels either question and returns to Delete user; a refused close keeps focus there', async ({ page, checkA11y }) => {
  test.setTimeout(180_000);
  const customer = await newCustomer(page.request, page);
  await page.context().clearCookies();
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto(`/admin/users/${customer.id}`);
  const deleteUser = page.getByRole('button', { name: 'Delete user' });
  await press(deleteUser);
  await expect(page.getByRole('button', { name: 'Yes, continue' })).toBeFocused();
  await lookAtBothWidths(page, 'delete-user-first-question', checkA11y);
  await page.getByRole('button', { name: 'Yes, continue' }).focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(deleteUser).toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog', { name: 'Are you absolutely sure?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(deleteUser).toBeFocused();
  expect((await page.request.get(`/api/user/admin/${customer.id}`)).status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/admin/users/${customer.id}$`));

  // Adding a note with Enter: the button is busy while it is sent, and focus comes back to it.
  await page.getByRole('textbox', { name: 'Note' }).fill('Called about the keyboard');
  await press(page.getByRole('button', { name: 'Add note' }));
  await expect(page.getByText('Called about the keyboard').first()).toBeVisible();
  const afterNote = await focusSettled(page);
  expect(afterNote).toEqual({ tag: 'BUTTON', text: 'Add note' });

  // The demo customer holds money: closing is refused by the server; focus returns to Delete user, under the message.
  const users = await page.request.get(`/api/user/admin/email/${encodeURIComponent(DEMO_CUSTOMER.email)}`);
  const demoId = (await users.json()).data._id as string;
  await page.goto(`/admin/users/${demoId}`);
  await press(page.getByRole('button', { name: 'Delete user' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Close account' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: /zero/ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete user' })).toBeFocused();
});

test('journal entry: Escape cancels "Reverse this entry" and reverses nothing', async ({ page, checkA11y }) => {
  test.setTimeout(180_000);
  const customer = await newCustomer(page.request, page);
  const [approvalId] = await pendingCredits(page, customer.id, 1);
  const checker = await staffBearerToken(page.request, ADMIN2);
  const approved = await page.request.post(`/api/admin/approvals/${approvalId}/approve`, {
    headers: { authorization: `Bearer ${checker}`, ...fromOurPages() },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  const entryId = (await approved.json()).data.outcome.data.entryId as string;
  await page.context().clearCookies();
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto(`/admin/journal/${entryId}`);
  const reverse = page.getByRole('button', { name: 'Reverse this entry' });
  await press(reverse);
  await expect(page.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('Entered twice');
  await lookAtBothWidths(page, 'journal-entry-reversal-open', checkA11y);
  await page.getByLabel('Reason').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('form', { name: 'Confirm reversal' })).toHaveCount(0);
  await expect(reverse).toBeFocused();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Reverse this entry' })).toBeVisible();
  await expect(page.getByText('Reversed by')).toHaveCount(0);
});

test('ledger: after Verify and Anchor now focus stays on the button pressed', async ({ page, checkA11y }) => {
  test.setTimeout(180_000);
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto('/admin/ledger');
  const verify = page.getByRole('button', { name: 'Verify the ledger' });
  await press(verify);
  await expect(page.getByRole('status').filter({ hasText: /checked/ })).toBeVisible({ timeout: 30_000 });
  expect(await focusSettled(page)).toEqual({ tag: 'BUTTON', text: 'Verify the ledger' });
  const anchor = page.getByRole('button', { name: 'Anchor now' });
  await press(anchor);
  await expect(page.getByRole('button', { name: 'Anchor now' })).toBeEnabled({ timeout: 30_000 });
  expect(await focusSettled(page)).toEqual({ tag: 'BUTTON', text: 'Anchor now' });
  await lookAtBothWidths(page, 'ledger-after-anchor', checkA11y);
});

test('card requests: after an approval focus goes to the next request; the pager keeps focus at the last page', async ({ page, request, checkA11y }) => {
  test.setTimeout(180_000);
  const first = await newCustomer(request, page);
  const second = await newCustomer(request, page);
  for (const customer of [first, second]) {
    const card = await request.post('/api/cards/requests', {
      headers: { authorization: `Bearer ${customer.token}`, ...fromOurPages() },
      data: { cardType: 'debit' },
    });
    expect(card.status(), await card.text()).toBe(201);
  }
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto('/admin/cards');
  const firstRow = page.getByRole('row').filter({ hasText: first.name });
  await expect(firstRow).toHaveCount(1);
  await press(firstRow.getByRole('button', { name: /^Approve/ }));
  await expect(firstRow).toHaveCount(0);
  const afterApprove = await focusSettled(page);
  expect(afterApprove.tag).toBe('BUTTON');
  expect(afterApprove.text).toMatch(/^Approve .*card request$/);

  // The audit log, at its last page: Next is disabled once pressed, focus moves to Previous.
  const headers = fromOurPages();
  for (let index = 0; index < 26; index += 1) {
    const note = await page.request.post(`/api/user/admin/${first.id}/notes`, { headers, data: { body: `Keyboard pager note ${index + 1}` } });
    expect(note.status(), await note.text()).toBe(201);
  }
  // Only this customer's records: journeys running beside this one add to the whole log, and its
  // page count could grow between reading it and pressing Next.
  const about = `customer=${first.id}`;
  await page.goto(`/admin/audit?${about}`);
  const position = page.getByRole('navigation', { name: 'Audit log pages' }).getByText(/^Page 1 of \d+/);
  const pages = Number(/of (\d+)/.exec((await position.textContent()) ?? '')?.[1]);
  expect(pages).toBeGreaterThan(1);
  await page.goto(`/admin/audit?${about}&page=${pages - 1}`);
  const next = page.getByRole('button', { name: 'Next' });
  await press(next);
  await expect(page.getByText(new RegExp(`^Page ${pages} of ${pages}`))).toBeVisible();
  await expect(next).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeFocused();
  await lookAtBothWidths(page, 'audit-last-page', checkA11y);
});
