import type { APIRequestContext, Page } from '@playwright/test';
import { png } from '../tests/support/multipart';
import {
  approvedStaffCall,
  DEMO_CUSTOMER,
  expect,
  expectLegibleChart,
  fromOurPages,
  lookAtBothWidths,
  newCustomer,
  staffSignInByApi,
  test,
  uniqueEmail,
  waitForHydration,
} from './support/fixtures';

// The back office's small gaps from the last walk through it: the identity reviews' "All" tab says
// each submission's status; an address edited by hand is refused in the filters' words; the
// journal says when no customer matches what was typed; an unknown /admin/ address stays in the
// back office; long unbroken words wrap in tables; the dashboard chart's labels are legible on a phone.

async function submitKyc(request: APIRequestContext, token: string): Promise<void> {
  const image = { name: 'document.png', mimeType: 'image/png', buffer: await png() };
  const kyc = await request.post('/api/user/verification', {
    headers: { authorization: `Bearer ${token}`, ...fromOurPages() },
    multipart: { passportImageFile: image, documentType: 'passport', documentFile: image, proofOfAddressFile: image, dateOfBirth: '1989-06-01' },
  });
  expect(kyc.status(), await kyc.text()).toBe(201);
}

async function submissionOf(page: Page, userId: string): Promise<string> {
  const queue = await page.request.get('/api/admin/kyc?status=pending&pageSize=100');
  expect(queue.status()).toBe(200);
  const { items } = ((await queue.json()) as { data: { items: Array<{ id: string; userId: string }> } }).data;
  const found = items.find((item) => item.userId === userId);
  expect(found, `a pending submission of ${userId}`).toBeTruthy();
  return found!.id;
}

test('the identity reviews’ All tab says which submissions wait, which were approved and which rejected', async ({ page, request, checkA11y }) => {
  const tag = Math.random().toString(36).slice(2, 6);
  // One after the other: the customers sign up through the same request context (its cookie).
  const waiting = await newCustomer(request, page, { firstName: `Kyc${tag}`, lastName: 'Waiting' });
  const approved = await newCustomer(request, page, { firstName: `Kyc${tag}`, lastName: 'Approved' });
  const rejected = await newCustomer(request, page, { firstName: `Kyc${tag}`, lastName: 'Rejected' });
  for (const customer of [waiting, approved, rejected]) await submitKyc(request, customer.token);
  await staffSignInByApi(page);
  const approve = await page.request.post(`/api/admin/kyc/${await submissionOf(page, approved.id)}/approve`, { headers: fromOurPages() });
  expect(approve.status(), await approve.text()).toBe(200);
  const reject = await page.request.post(`/api/admin/kyc/${await submissionOf(page, rejected.id)}/reject`, {
    headers: fromOurPages(),
    data: { reason: 'The document is unreadable' },
  });
  expect(reject.status(), await reject.text()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/kyc?status=all');
  await waitForHydration(page);
  const table = page.getByRole('table', { name: 'Submissions, newest first' });
  await expect(table.getByRole('columnheader', { name: 'Status' })).toBeVisible();
  for (const [customer, status] of [
    [waiting, 'Waiting for review'],
    [approved, 'Approved'],
    [rejected, 'Rejected'],
  ] as const) {
    const row = table.getByRole('row').filter({ hasText: customer.name });
    await expect(row.getByRole('cell', { name: status, exact: true }), `${customer.name}: ${status}`).toBeVisible();
  }
  await lookAtBothWidths(page, 'admin-gaps-kyc-all', checkA11y);
  // On a phone the status is a labelled line of the row's card.
  await page.setViewportSize({ width: 375, height: 900 });
  await expect(table.getByRole('row').filter({ hasText: rejected.name }).getByText('Rejected', { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });

  // A tab of one status does not repeat it on every row.
  await page.getByRole('group', { name: 'Submission status' }).getByRole('button', { name: 'Waiting for review' }).click();
  await expect(page.getByRole('table', { name: 'Submissions waiting for review, oldest first' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);
});

test('an audit or journal address edited by hand is refused in the filters’ words, not the API’s parameter names', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const { path, message } of [
    { path: '/admin/audit?actorId=nonsense', message: 'Staff member is not a valid id' },
    { path: '/admin/audit?action=Not%20An%20Action', message: 'Action may contain only lower-case letters, digits, dots and underscores' },
    { path: `/admin/audit?customer=${'x'.repeat(300)}`, message: /^Customer / },
  ]) {
    await page.goto(path);
    await waitForHydration(page);
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert, path).toHaveText(message);
    await expect(alert, path).not.toContainText(/actorId|action |customer /);
  }
  await lookAtBothWidths(page, 'admin-gaps-audit-hand-edited', checkA11y);

  await page.goto('/admin/journal?amountMin=lots');
  await waitForHydration(page);
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('Amount from');
  await expect(alert).not.toContainText('amountMin');
});

test('the journal says when no customer matches what was typed in its filter', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/journal');
  await waitForHydration(page);
  const filters = page.getByRole('form', { name: 'Filter the journal' });
  const nobody = uniqueEmail('no.such.customer');
  await filters.getByLabel('Customer').fill(nobody);
  await filters.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No customer' })).toHaveText(
    `No customer matches “${nobody}”: check the email, account number or id.`,
  );
  await expect(page.getByText('No entries match these filters.')).toHaveCount(0);
  await lookAtBothWidths(page, 'admin-gaps-journal-no-customer', checkA11y);

  // A customer who exists but whose entries the other filters exclude: still "no entries match".
  await page.goto(`/admin/journal?customer=${encodeURIComponent(DEMO_CUSTOMER.email)}&amountMin=99999999`);
  await expect(page.getByRole('status').filter({ hasText: 'No entries match these filters.' })).toBeVisible();
});

test('an unknown /admin/ address shows Not Found inside the back office, with its menu', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/nope');
  await waitForHydration(page);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Not Found');
  await expect(page.getByRole('main')).toContainText('No back-office page has the address /admin/nope');
  // The back office's menu, not the public site's header.
  const menu = page.getByRole('navigation').filter({ has: page.getByRole('link', { name: 'Audit log' }) });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login Account' })).toHaveCount(0);
  await expect(page).toHaveTitle(/Not Found/);
  await lookAtBothWidths(page, 'admin-gaps-not-found', checkA11y);
  // Deeper too, and the menu still leads somewhere.
  await page.goto('/admin/users/edit/x/y/z');
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Not Found');
  await menu.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
});

test('a long unbroken subject or staff name wraps inside its table at 1280 px', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  const word = (stem: string, length: number) => stem.repeat(Math.ceil(length / stem.length)).slice(0, length);
  const subject = word('Unbrokensubject', 200);
  const contact = await page.request.post('/api/contacts', {
    headers: fromOurPages(),
    data: { name: word('Longvisitorname', 80), email: uniqueEmail('long.subject'), subject, message: word('Unbrokenmessage', 300) },
  });
  expect(contact.status(), await contact.text()).toBe(201);
  const staffName = word('Featherstonehaugh', 120);
  const staffEmail = uniqueEmail('long.staff.name');
  const invited = await page.request.post('/api/admin/staff', {
    headers: fromOurPages(),
    data: { name: staffName, email: staffEmail, staffRole: 'support' },
  });
  expect((await approvedStaffCall(invited)).status).toBe(201);

  await page.setViewportSize({ width: 1280, height: 900 });
  for (const { path, table, text, share } of [
    { path: '/admin/contacts', table: /^Contact messages/, text: subject, share: 1 / 3 },
    { path: '/admin/staff', table: /^Staff members/, text: staffName, share: 1 / 3 },
    // The users list's name is its widest column: half the card at most, and no scrolling inside it.
    { path: `/admin/users?search=${encodeURIComponent(staffEmail)}`, table: /^Users, page/, text: staffName, share: 1 / 2 },
  ]) {
    await page.goto(path);
    await waitForHydration(page);
    const list = page.getByRole('table', { name: table });
    // The first is the text shown (a row's View link may repeat the name for screen readers only).
    const shown = list.getByText(text, { exact: true }).first();
    await expect(shown).toBeVisible();
    // The long word wraps within its column instead of setting the column's (and the table's) width:
    // several lines, none wider than a third of the table's card. (Other rows' controls may still make
    // a table scroll inside its card; the staff list's fit it at 1280 px: admin-layout.spec.ts.)
    const card = (await list.locator('xpath=..').boundingBox())!;
    const lines = await shown.evaluate((element) => {
      const text = document.createRange();
      text.selectNodeContents(element);
      return [...text.getClientRects()].map((line) => line.width);
    });
    expect(lines.length, `${path}: the long word wraps`).toBeGreaterThan(1);
    expect(Math.max(...lines), `${path}: its lines are narrower than ${share < 0.5 ? 'a third' : 'half'} of the card`).toBeLessThan(card.width * share);
    await lookAtBothWidths(page, `admin-gaps-long-words${path.replace(/\?.*$/, '').replaceAll('/', '-')}`, checkA11y);
  }
});

test('the dashboard chart’s axis labels are legible on a phone', async ({ page, checkA11y }) => {
  await staffSignInByApi(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/dashboard');
    await waitForHydration(page);
    const chart = page.getByRole('img', { name: /Transfer volume, last 30 days/ });
    await expect(chart).toBeVisible();
    // The day labels ("Nov 3") along the bottom.
    await expectLegibleChart(chart, /[A-Z][a-z]{2}/);
  }
  await lookAtBothWidths(page, 'admin-gaps-dashboard-chart', checkA11y);
});
