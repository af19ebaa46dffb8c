import type { Locator, Page } from '@playwright/test';
import { bankDate } from '../src/server/lib/bank-time';
import { ADMIN, ADMIN2, expect, fromOurPages, lookAtBothWidths, newCustomer, signInAs, staffBearerToken, test, waitForHydration } from './support/fixtures';

// Every "are you sure?" is asked in the page (ConfirmInline, components/ui/confirm-inline.tsx),
// never by the browser's window.confirm: the question keeps its words (amount, payee, name), focus
// moves to its confirm button, Escape cancels it and puts focus back on the button that opened it,
// and after the change focus stays somewhere on the page. A native dialog fails the journey.

/** The focused element's text as a keyboard user meets it, or BODY when focus fell to the page. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return !active || active === document.body ? 'BODY' : (active.textContent ?? '').replace(/\s+/g, ' ').trim();
  });

/** Waits until focus sits somewhere other than the page's body (the guard settles within 600 ms), and answers it. */
async function focusSettled(page: Page): Promise<string> {
  await expect.poll(() => focusedText(page), { message: 'focus fell to the page' }).not.toBe('BODY');
  await page.waitForTimeout(700);
  const text = await focusedText(page);
  expect(text, 'focus fell to the page').not.toBe('BODY');
  return text;
}

/** Opens the question with the keyboard (Enter on its button): focus moves to its confirm button; Escape closes it, focus back on the button. */
async function escapeCancels(page: Page, opener: Locator, question: Locator, confirmLabel: string): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: confirmLabel, exact: true })).toBeFocused();
  await expect(question.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** Cancel does what Escape does. */
async function cancelCancels(opener: Locator, question: Locator): Promise<void> {
  await opener.click();
  await question.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(question).toHaveCount(0);
  await expect(opener).toBeFocused();
}

/** The widths of a table's columns (its headings'), in whole pixels. */
const columnWidths = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('columnheader')
    .evaluateAll((headers) => headers.map((header) => Math.round(header.getBoundingClientRect().width)));

// Whatever a native dialog asked, dismissed at once (as a browser that blocks it would) and failing the journey.
let nativeDialogs: string[] = [];
test.beforeEach(({ page }) => {
  nativeDialogs = [];
  page.on('dialog', (dialog) => {
    nativeDialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
});
test.afterEach(() => {
  expect(nativeDialogs, 'native dialogs').toEqual([]);
});

test('customer: removing a beneficiary and withdrawing a loan application are asked in the page', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  await newCustomer(page.request, page, { firstName: 'Inline', lastName: 'Asker' });
  for (const [name, accountNumber] of [
    ['Robin Payee', '123456789'],
    ['Sam Second', '987654321'],
  ]) {
    const saved = await page.request.post('/api/beneficiaries', {
      headers: fromOurPages(),
      data: { name, accountNumber, routingNumber: '021000021', bankName: 'Chase' },
    });
    expect(saved.status(), await saved.text()).toBe(201);
  }
  const applied = await page.request.post('/api/loans', {
    headers: fromOurPages(),
    data: { loanType: 'personal', loanAmount: 5000, loanDuration: 12, loanPurpose: 'A new roof for the cabin' },
  });
  expect(applied.status(), await applied.text()).toBe(201);

  // ---------------------------------------------------------------- remove a beneficiary
  await page.goto('/account/beneficiaries');
  const list = page.getByRole('list', { name: 'Beneficiaries' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const remove = page.getByRole('button', { name: 'Remove Robin Payee' });
  const removal = page.getByRole('alertdialog', { name: 'Remove Robin Payee from your beneficiaries?' });
  await escapeCancels(page, remove, removal, 'Remove');
  await cancelCancels(remove, removal);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // Open: in the row, under the payee, axe clean, no sideways scroll, at a phone's and a laptop's width.
  await remove.click();
  await expect(removal).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: 'Robin Payee' }).getByRole('alertdialog')).toBeVisible();
  await lookAtBothWidths(page, 'confirm-remove-beneficiary', checkA11y);
  // Confirmed with the keyboard: the payee goes; focus goes to the payee that took its place.
  await removal.getByRole('button', { name: 'Remove', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(list.getByText('Robin Payee')).toHaveCount(0);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  expect(await focusSettled(page)).toBe('Remove Sam Second');

  // ---------------------------------------------------------------- withdraw a loan application
  await page.goto('/account/loans');
  const withdraw = page.getByRole('button', { name: 'Withdraw the personal loan application' });
  const withdrawal = page.getByRole('alertdialog', { name: 'Withdraw this loan application?' });
  await escapeCancels(page, withdraw, withdrawal, 'Withdraw application');
  await cancelCancels(withdraw, withdrawal);
  await expect(page.getByText('Processing', { exact: true })).toBeVisible();
  await withdraw.click();
  await lookAtBothWidths(page, 'confirm-withdraw-loan', checkA11y);
  await withdrawal.getByRole('button', { name: 'Withdraw application', exact: true }).click();
  await expect(page.getByText('Withdrawn', { exact: true })).toBeVisible();
  await expect(withdraw).toHaveCount(0);
  await focusSettled(page);
  const loans = await page.request.get('/api/loans');
  expect(((await loans.json()) as { data: Array<{ status: string }> }).data.map((loan) => loan.status)).toEqual(['withdrawn']);
});

test('back office: deleting a contact message is asked in the page', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const subjects = [`Inline question ${run}`, `Inline neighbour ${run}`];
  for (const subject of subjects) {
    const sent = await page.request.post('/api/contacts', {
      headers: fromOurPages(),
      data: { name: 'Avery Inline', email: 'avery@example.com', subject, message: 'Please call me back about my account.' },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  await signInAs(page, ADMIN, '/admin/login');
  await page.goto('/admin/contacts');
  const item = page.getByRole('row').filter({ hasText: subjects[0] });
  await expect(item).toBeVisible();
  const remove = item.getByRole('button', { name: /^Delete message from Avery Inline/ });
  const question = item.getByRole('alertdialog', { name: `Delete the message from Avery Inline (${subjects[0]})? This cannot be undone.` });
  await escapeCancels(page, remove, question, 'Delete message');
  await cancelCancels(remove, question);
  // The question takes the buttons' place at their width: every column keeps its width when it
  // opens (a wider question widened the actions column by about 100 px and squeezed the others).
  await page.setViewportSize({ width: 1280, height: 900 });
  const closedWidths = await columnWidths(page, 'Contact messages, newest first');
  await remove.click();
  await expect(question).toBeVisible();
  expect(await columnWidths(page, 'Contact messages, newest first'), 'the contacts columns with the question open at 1280 px').toEqual(closedWidths);
  await lookAtBothWidths(page, 'confirm-delete-contact', checkA11y);
  await question.getByRole('button', { name: 'Delete message', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Contact deleted')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: subjects[0] })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: subjects[1] })).toBeVisible();
  await focusSettled(page);
});

test('back office: the approval, loan and staff questions fit their lists at 375 and 1280 px', async ({ page, request, checkA11y }) => {
  test.setTimeout(180_000);
  // A staff credit waiting for a second staff member, and a customer's loan application.
  const customer = await newCustomer(request, page, { firstName: 'Fitting', lastName: `Question${Date.now().toString(36)}` });
  const applied = await request.post('/api/loans', {
    headers: { authorization: `Bearer ${customer.token}`, ...fromOurPages() },
    data: { loanType: 'auto', loanAmount: 8000, loanDuration: 24, loanPurpose: 'A used car for the commute' },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const credit = await request.post(`/api/transaction/admin/${customer.id}`, {
    headers: { authorization: `Bearer ${await staffBearerToken(request, ADMIN)}`, 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
    data: { amount: 15, transactionType: 'credit', date: bankDate(new Date(), 'UTC'), description: 'Inline question credit', reason: 'Inline journey' },
  });
  expect(credit.status(), await credit.text()).toBe(202);
  await signInAs(page, ADMIN2, '/admin/login');

  await page.goto('/admin/approvals');
  const approvalRow = page.getByTestId('approval-row').filter({ hasText: customer.name });
  const approve = approvalRow.getByRole('button', { name: /^Approve the credit or debit/ });
  const approval = approvalRow.getByRole('alertdialog', { name: /^Approve the credit or debit: Credit \$15\.00 .* It takes effect now\.$/ });
  await escapeCancels(page, approve, approval, 'Approve');
  await approve.click();
  await lookAtBothWidths(page, 'confirm-approve', checkA11y);
  await page.keyboard.press('Escape');
  await expect(approve).toBeFocused();

  await page.goto('/admin/loans');
  const loanRow = page.getByTestId('loan-row').filter({ hasText: customer.name });
  const disburse = loanRow.getByRole('button', { name: `Approve and disburse ${customer.name}'s loan` });
  const disbursal = loanRow.getByRole('alertdialog', {
    name: `Approve ${customer.name}'s loan of $8,000.00? It is paid into their checking account, at once or, for a large loan, once a second staff member approves.`,
  });
  await escapeCancels(page, disburse, disbursal, 'Approve and disburse');
  // The question (and the reason form) take the buttons' place at their width, the decision
  // column's: every column keeps its width when either opens (the question as wide as its words
  // widened the column by about 100 px, and the whole table jumped).
  await page.setViewportSize({ width: 1280, height: 900 });
  const loanWidths = await columnWidths(page, 'Loan applications');
  await disburse.focus();
  await page.keyboard.press('Enter');
  await expect(disbursal).toBeVisible();
  expect(await columnWidths(page, 'Loan applications'), 'the loan columns with the approval question open at 1280 px').toEqual(loanWidths);
  await lookAtBothWidths(page, 'confirm-disburse', checkA11y);
  await page.keyboard.press('Escape');
  await expect(disburse).toBeFocused();
  const reject = loanRow.getByRole('button', { name: `Reject ${customer.name}'s loan` });
  await reject.focus();
  await page.keyboard.press('Enter');
  await expect(loanRow.getByRole('textbox', { name: `Reason for rejecting ${customer.name}'s application` })).toBeFocused();
  expect(await columnWidths(page, 'Loan applications'), 'the loan columns with the reason form open at 1280 px').toEqual(loanWidths);
  await page.keyboard.press('Escape');
  await expect(reject).toBeFocused();

  // Suspending the first admin is only asked, never confirmed: other journeys sign in as them.
  await page.goto('/admin/staff');
  const staffRow = page.getByTestId('staff-row').filter({ hasText: ADMIN.email });
  const suspend = staffRow.getByRole('button', { name: /^Suspend / });
  const suspension = staffRow.getByRole('alertdialog', {
    name: /^Suspend back office access for .+\? Their sessions end at once and they cannot sign in until reinstated\.$/,
  });
  await escapeCancels(page, suspend, suspension, 'Suspend');
  // The question takes the member's controls' place at their width: every column keeps its width
  // when it opens (a question at its own 20rem widened the actions column by about 60 px).
  await page.setViewportSize({ width: 1280, height: 900 });
  const staffWidths = await columnWidths(page, 'Staff members');
  await suspend.focus();
  await page.keyboard.press('Enter');
  await expect(suspension).toBeVisible();
  expect(await columnWidths(page, 'Staff members'), 'the staff columns with the suspend question open at 1280 px').toEqual(staffWidths);
  await lookAtBothWidths(page, 'confirm-suspend', checkA11y);
  await page.keyboard.press('Escape');
  await expect(suspend).toBeFocused();
});

test("verify-statement: the file's problem is the field's own description", async ({ page, checkA11y }) => {
  await page.goto('/verify-statement');
  await waitForHydration(page);
  const input = page.getByLabel('Statement PDF');
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(/^The file exactly as the customer downloaded it/);
  await page.getByRole('button', { name: 'Check statement' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please choose the statement PDF to check.');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(/^Please choose the statement PDF to check\. The file exactly as the customer downloaded it/);
  // Choosing another file clears the problem; a file that is no PDF is the field's problem again.
  await input.setInputFiles({ name: 'statement.txt', mimeType: 'text/plain', buffer: Buffer.from('Closing balance $1,326.85') });
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Check statement' }).click();
  const message = 'statement.txt is not a PDF. Please choose the statement PDF exactly as it was downloaded.';
  await expect(page.getByRole('alert')).toHaveText(message);
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} The file exactly as`));
  await lookAtBothWidths(page, 'verify-statement-problem', checkA11y);
});
