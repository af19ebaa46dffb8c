import type { APIRequestContext, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { runningEmbeddedUrl } from '../src/server/db/embedded';
import { png } from '../tests/support/multipart';
import {
  ADMIN,
  approvedStaffCall,
  DEMO_CUSTOMER,
  enterAuthenticatorCode,
  expect,
  fromOurPages,
  newCustomer,
  test,
  uniqueEmail,
  waitForHydration,
} from './support/fixtures';

// The back office as a phone and a desktop show it (issue 15, "details found when the back office
// was tried"): a visitor is sent to the staff login and back to the page asked for; every page's
// title names the page and the bank; no page scrolls sideways at 375 px, where lists are one card
// per row with their actions in view; axe finds nothing. Screenshots: test-results/.

const BACK_OFFICE = 'Ledgerline Bank back office';

/** A job that fails on its only attempt (as jobs.spec.ts queues it), so the jobs page has a row with its Retry button. */
async function queueFailingJob(): Promise<void> {
  const url = runningEmbeddedUrl(`/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`);
  if (!url) throw new Error('no running PostgreSQL for the suite');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`select graphile_worker.add_job('send_mail', '{"outboxId": "not-a-number"}'::json, max_attempts => 1)`);
  } finally {
    await client.end();
  }
}

/** A card request from the demo customer, so the card requests page has a row with its actions (one already open is refused: a row all the same). */
async function requestCard(request: APIRequestContext): Promise<void> {
  const signIn = await request.post('/api/auth/signin', { headers: fromOurPages(), data: DEMO_CUSTOMER });
  expect(signIn.status()).toBe(200);
  const token = ((await signIn.json()) as { data: { token: string } }).data.token;
  const card = await request.post('/api/cards/requests', { headers: { authorization: `Bearer ${token}`, ...fromOurPages() }, data: { cardType: 'debit' } });
  expect([201, 409], await card.text()).toContain(card.status());
}

interface AdminPage {
  name: string;
  path: string;
  title: string;
  heading: RegExp | string;
  /** An action of the first row (or the page's main action) that must be in view, within the page's width. */
  action?: (page: Page) => Locator;
}

/** Within the viewport's width (not cut off, not past a sideways scroll) and visible. */
async function expectInView(page: Page, target: Locator, what: string): Promise<void> {
  await expect(target, what).toBeVisible();
  const box = await target.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge within ${width} px`).toBeLessThanOrEqual(width);
}

/** The lines an element's text is laid out on, as the reader sees them (from each character's box). */
async function linesOf(target: Locator): Promise<string[]> {
  return target.evaluate((element) => {
    const lines: Array<{ top: number; text: string }> = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let index = 0; index < text.length; index += 1) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const last = lines.at(-1);
        if (last && Math.abs(last.top - top) < 4) last.text += text[index];
        else lines.push({ top, text: text[index] ?? '' });
      }
    }
    return lines.map((line) => line.text);
  });
}

/** An email address shown whole, each line break before an `@` or a `.` or after a `-`: never mid-word. */
async function expectWrappedAtSensiblePoints(target: Locator, email: string, what: string): Promise<void> {
  const lines = await linesOf(target);
  expect(lines.join(''), what).toBe(email);
  for (let index = 1; index < lines.length; index += 1) {
    const sensible = /^[@.]/.test(lines[index] ?? '') || (lines[index - 1] ?? '').endsWith('-');
    expect(sensible, `${what}: breaks between "${lines[index - 1]}" and "${lines[index]}"`).toBe(true);
  }
}

/** The vertical middle of an element's box. */
async function middleOf(target: Locator): Promise<number> {
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  return box!.y + box!.height / 2;
}

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what} scrolls sideways at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

test.describe('back office layout', () => {
  test('a visitor is sent to the staff login and back to the page; every page at 375 and 1280 px: title, no sideways scroll, actions in view, axe clean', async ({
    page,
    request,
    checkA11y,
  }) => {
    test.setTimeout(300_000);
    await requestCard(request);
    await queueFailingJob();

    // ------------------------------------------------------------ the visitor and the staff login
    await page.goto('/admin/users?search=alex');
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fusers%3Fsearch%3Dalex$/);
    await waitForHydration(page);
    await expect(page).toHaveTitle(`Staff login - ${BACK_OFFICE}`);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
    await expect(page.getByText('Demo bank: no real money')).toBeVisible();
    await checkA11y();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await enterAuthenticatorCode(page, ADMIN.totpSecret);
    await expect(page).toHaveURL(/\/admin\/users\?search=alex$/);
    await expect(
      page
        .getByRole('table', { name: /Users, page 1/ })
        .getByRole('row')
        .nth(1),
    ).toContainText(DEMO_CUSTOMER.email);

    // ------------------------------------------------------------ the pages' subjects
    const customers = (await (await page.request.get(`/api/user/admin?search=${encodeURIComponent(DEMO_CUSTOMER.email)}`)).json()) as {
      data: { items: Array<{ _id: string }> };
    };
    const customerId = customers.data.items[0]?._id ?? '';
    expect(customerId).not.toBe('');
    // The failing job has failed by now (the runner takes it at once): the jobs page lists it.
    await expect
      .poll(async () => ((await (await page.request.get('/api/admin/jobs?state=failed')).json()) as { data: { items: unknown[] } }).data.items.length)
      .toBeGreaterThan(0);
    // An audited staff action, so the audit log has a row on a fresh bank.
    const note = await page.request.post(`/api/user/admin/${customerId}/notes`, { headers: fromOurPages(), data: { body: 'Layout journey: a note to audit' } });
    expect(note.status(), await note.text()).toBe(201);
    // A contact message, so the contacts list has a row on a fresh bank.
    const contact = await page.request.post('/api/contacts', {
      headers: fromOurPages(),
      data: { name: 'Layout Visitor', email: 'layout.visitor@example.com', subject: 'Layout journey question', message: 'A message to list' },
    });
    expect(contact.status(), await contact.text()).toBe(201);
    // Long values, as real customers and staff have them (40+ character emails, long names): they
    // wrap at sensible points or stay inside their card, never widening the page.
    const longCustomer = await newCustomer(request, page, {
      firstName: 'Maximiliana-Josephine',
      lastName: 'Wolfeschlegelsteinhausen-Bergdorff',
      prefix: 'maximiliana-josephine.wolfeschlegelsteinhausen',
    });
    expect(longCustomer.email.length).toBeGreaterThan(40);
    const longStaffEmail = uniqueEmail('bartholomew.featherstonehaugh-cholmondeley');
    const invited = await page.request.post('/api/admin/staff', {
      headers: fromOurPages(),
      data: { name: 'Bartholomew Alexander Featherstonehaugh-Cholmondeley', email: longStaffEmail, staffRole: 'compliance' },
    });
    expect((await approvedStaffCall(invited)).status).toBe(201);
    // A credit for the long-named customer left waiting: the approvals queue has a row with its buttons.
    const credit = await page.request.post(`/api/transaction/admin/${longCustomer.id}`, {
      headers: { ...fromOurPages(), 'idempotency-key': `layout-${Date.now().toString(36)}` },
      data: {
        amount: 12.5,
        transactionType: 'credit',
        date: new Date().toISOString().slice(0, 10),
        description: 'Layout journey credit',
        reason: 'layout check',
        account: 'checking',
      },
    });
    expect(credit.status(), await credit.text()).toBe(202);
    // Their identity documents, so the identity reviews list has a row with the long address.
    const image = { name: 'document.png', mimeType: 'image/png', buffer: await png() };
    const kyc = await request.post('/api/user/verification', {
      headers: { authorization: `Bearer ${longCustomer.token}`, ...fromOurPages() },
      multipart: { passportImageFile: image, documentType: 'passport', documentFile: image, proofOfAddressFile: image, dateOfBirth: '1989-06-01' },
    });
    expect(kyc.status(), await kyc.text()).toBe(201);
    const longContact = await page.request.post('/api/contacts', {
      headers: fromOurPages(),
      data: {
        name: 'Maximiliana-Josephine Wolfeschlegelsteinhausen-Bergdorff',
        email: longCustomer.email,
        subject: 'A question with a long address',
        message: 'A message to list',
      },
    });
    expect(longContact.status(), await longContact.text()).toBe(201);
    const journal = (await (await page.request.get('/api/admin/journal?pageSize=1')).json()) as { data: { items: Array<{ id: string }> } };
    const entryId = journal.data.items[0]?.id ?? '';
    expect(entryId).not.toBe('');

    // The users list's first row's link, on the list and on a search of it.
    const firstUserView = (page: Page) =>
      page
        .getByRole('table', { name: /Users, page 1/ })
        .getByRole('row')
        .nth(1)
        .getByRole('link', { name: /^View / });
    const pages: AdminPage[] = [
      { name: 'index', path: '/admin', title: 'Dashboard', heading: 'Back office overview' },
      { name: 'dashboard', path: '/admin/dashboard', title: 'Dashboard', heading: 'Back office overview' },
      {
        name: 'users',
        path: '/admin/users',
        title: 'Users',
        heading: 'Users',
        action: firstUserView,
      },
      {
        name: 'user',
        path: `/admin/users/${customerId}`,
        title: 'User',
        heading: 'Alex Morgan',
        action: (page) => page.getByRole('link', { name: 'Edit user' }),
      },
      {
        name: 'users-long',
        path: '/admin/users?search=maximiliana',
        title: 'Users',
        heading: 'Users',
        action: firstUserView,
      },
      {
        name: 'user-long',
        path: `/admin/users/${longCustomer.id}`,
        title: 'User',
        heading: longCustomer.name,
        action: (page) => page.getByRole('link', { name: 'Edit user' }),
      },
      {
        name: 'user-account',
        path: `/admin/users/account/${customerId}`,
        title: 'Edit Account Info',
        heading: /Edit Account Info/,
      },
      {
        name: 'user-edit',
        path: `/admin/users/edit/${customerId}`,
        title: 'Edit user',
        heading: /Edit/,
        action: (page) => page.getByRole('button', { name: 'Save changes' }),
      },
      {
        name: 'user-transactions',
        path: `/admin/transactions/${customerId}`,
        title: 'User transactions',
        heading: /^Transactions of Alex Morgan/,
        action: (page) =>
          page
            .getByRole('table', { name: 'Transactions' })
            .getByTestId('admin-transaction-row')
            .first()
            .getByRole('button', { name: /^Edit description/ }),
      },
      { name: 'add-transaction', path: '/admin/transactions/add-transactions', title: 'Add Transaction', heading: 'Add Transaction' },
      {
        name: 'journal',
        path: '/admin/journal',
        title: 'Journal',
        heading: 'Journal',
        action: (page) =>
          page
            .getByRole('link', { name: /^Entry [\d,]+/ })
            .locator('visible=true')
            .first(),
      },
      {
        name: 'journal-entry',
        path: `/admin/journal/${entryId}`,
        title: 'Journal entry',
        heading: /^Entry /,
        action: (page) =>
          page
            .getByRole('table', { name: /^Postings of this entry/ })
            .getByRole('link', { name: /^Journal of the / })
            .first(),
      },
      { name: 'reports', path: '/admin/reports', title: 'Reports', heading: /Reports/ },
      {
        name: 'ledger',
        path: '/admin/ledger',
        title: 'General ledger',
        heading: 'General ledger',
        action: (page) => page.getByRole('button', { name: 'Verify the ledger' }),
      },
      {
        name: 'audit',
        path: '/admin/audit',
        title: 'Audit log',
        heading: 'Audit log',
        action: (page) => page.getByRole('table', { name: 'Audit log, newest first' }).getByRole('row').nth(1).getByRole('cell').first(),
      },
      { name: 'kyc', path: '/admin/kyc?status=all', title: 'Identity reviews', heading: 'Identity reviews' },
      { name: 'loans', path: '/admin/loans?status=all', title: 'Loan applications', heading: 'Loan applications' },
      {
        name: 'cards',
        path: '/admin/cards?status=all',
        title: 'Card requests',
        heading: 'Card requests',
        action: (page) => page.getByRole('table', { name: 'Card requests' }).getByRole('row').nth(1).getByRole('button').first(),
      },
      {
        name: 'contacts',
        path: '/admin/contacts',
        title: 'Contacts',
        heading: 'Contacts',
        action: (page) =>
          page
            .getByRole('table', { name: /^Contact messages/ })
            .getByRole('row')
            .nth(1)
            .getByRole('button', { name: /^Delete message from / }),
      },
      {
        name: 'jobs',
        path: '/admin/jobs?state=failed',
        title: 'Background jobs',
        heading: 'Background jobs',
        action: (page) =>
          page
            .getByRole('table', { name: 'Background jobs' })
            .getByRole('row')
            .nth(1)
            .getByRole('button', { name: /^Retry/ }),
      },
      { name: 'security', path: '/admin/security', title: 'Security', heading: 'Security' },
      {
        name: 'staff',
        path: '/admin/staff',
        title: 'Staff',
        heading: 'Staff',
        action: (page) =>
          page
            .getByRole('table', { name: 'Staff members' })
            .getByRole('row')
            .nth(1)
            .getByRole('button', { name: /^Change role of / }),
      },
      { name: 'approvals', path: '/admin/approvals', title: 'Approvals', heading: 'Approvals' },
    ];

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const admin of pages) {
        const what = `${admin.name} at ${width} px`;
        await page.goto(admin.path);
        await expect(page.getByRole('heading', { level: 1, name: admin.heading }), what).toBeVisible();
        await expect(page, what).toHaveTitle(`${admin.title} - ${BACK_OFFICE}`);
        await expect(page.getByRole('status').filter({ hasText: /^Loading/ }), what).toHaveCount(0);
        await noSidewaysScroll(page, what);
        if (admin.action) await expectInView(page, admin.action(page), `${what}: the first row's action`);
        await checkA11y();
        await page.screenshot({ path: test.info().outputPath(`admin-${admin.name}-${width}.png`), fullPage: true });
      }
    }

    // Long values: the staff list fits its card at 1280 px with an invited member whose address is
    // long (no scrolling inside the card), each member's access buttons under the role; long
    // addresses wrap before an '@' or a '.', never mid-word, on the lists that show them.
    const staffRows = page.getByRole('table', { name: 'Staff members' }).getByTestId('staff-row');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/staff');
      await expect(staffRows.first()).toBeVisible();
      await expect(staffRows.filter({ hasText: 'Bartholomew Alexander Featherstonehaugh-Cholmondeley' }).getByText('Invited', { exact: true })).toBeVisible();
      if (width === 1280) {
        const staffTable = page.getByRole('table', { name: 'Staff members' });
        await expect(staffTable).toHaveCSS('display', 'table');
        const card = await staffTable.locator('xpath=..').evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
        expect(card.scrollWidth, 'the staff list scrolls sideways inside its card at 1280 px').toBeLessThanOrEqual(card.clientWidth);
      }
      // The role select and its button on one line; the access buttons (a new link while invited,
      // Suspend) on a line of their own under it, right-aligned with it from 768 px.
      for (const who of ['Second Approver', 'Bartholomew Alexander Featherstonehaugh-Cholmondeley']) {
        const row = staffRows.filter({ hasText: who });
        const role = row.getByLabel(`Role for ${who}`);
        const change = row.getByRole('button', { name: `Change role of ${who}` });
        const suspend = row.getByRole('button', { name: `Suspend ${who}` });
        await expectInView(page, suspend, `Suspend ${who} at ${width} px`);
        // Tab still goes select, (Change role: disabled until another role is chosen), new link, Suspend.
        await role.focus();
        if (who !== 'Second Approver') {
          await page.keyboard.press('Tab');
          await expect(row.getByRole('button', { name: `Send ${who} a new invitation link` })).toBeFocused();
        }
        await page.keyboard.press('Tab');
        await expect(suspend).toBeFocused();
        // Measured together once focus has settled: a focus that scrolls the page (a longer list,
        // other journeys adding staff meanwhile) moves every box alike.
        const [roleMiddle, changeMiddle, suspendMiddle] = [await middleOf(role), await middleOf(change), await middleOf(suspend)];
        expect(Math.abs(changeMiddle - roleMiddle), `${who}'s role and its button on one line at ${width} px`).toBeLessThan(4);
        expect(suspendMiddle, `${who}'s Suspend under the role at ${width} px`).toBeGreaterThan(roleMiddle + 20);
        if (who !== 'Second Approver') {
          const link = row.getByRole('button', { name: `Send ${who} a new invitation link` });
          expect(Math.abs((await middleOf(link)) - suspendMiddle), `${who}'s new link and Suspend on one line at ${width} px`).toBeLessThan(4);
        }
        if (width === 1280) {
          const [changeBox, suspendBox] = [await change.boundingBox(), await suspend.boundingBox()];
          expect(Math.abs(changeBox!.x + changeBox!.width - (suspendBox!.x + suspendBox!.width)), `${who}'s actions right-aligned`).toBeLessThan(2);
        }
      }
      const lists: Array<{ path: string; email: string; where: (page: Page) => Locator }> = [
        { path: '/admin/staff', email: longStaffEmail, where: () => staffRows },
        { path: '/admin/users?search=maximiliana', email: longCustomer.email, where: (page) => page.getByRole('table', { name: /Users, page 1/ }) },
        { path: '/admin/kyc?status=all', email: longCustomer.email, where: (page) => page.getByRole('table', { name: /Submissions/ }) },
        { path: '/admin/contacts', email: longCustomer.email, where: (page) => page.getByRole('table', { name: /^Contact messages/ }) },
        { path: `/admin/users/${longCustomer.id}`, email: longCustomer.email, where: (page) => page.getByRole('main') },
      ];
      for (const list of lists) {
        await page.goto(list.path);
        const shown = list.where(page).getByText(list.email, { exact: true }).first();
        await expect(shown, `${list.email} on ${list.path}`).toBeVisible();
        await expectWrappedAtSensiblePoints(shown, list.email, `${list.path} at ${width} px`);
      }
    }
    // Between a phone and a laptop (800 px: tables, no sidebar) the staff and identity review lists
    // are wider than their card: they scroll inside the card, and the page does not scroll sideways
    // (nor does text past the card's edge widen it, even visually hidden: a row's "Review documents
    // of ..." once made the whole page 200 px wider).
    await page.setViewportSize({ width: 800, height: 900 });
    for (const list of [
      { path: '/admin/staff', table: 'Staff members' },
      { path: '/admin/kyc?status=all', table: 'Submissions, newest first' },
    ]) {
      await page.goto(list.path);
      const table = page.getByRole('table', { name: list.table });
      await expect(table).toHaveCSS('display', 'table');
      const { scrollWidth, clientWidth } = await table
        .locator('xpath=..')
        .evaluate((card) => ({ scrollWidth: card.scrollWidth, clientWidth: card.clientWidth }));
      expect(scrollWidth, `${list.path}: the list is wider than its card at 800 px`).toBeGreaterThan(clientWidth);
      await noSidewaysScroll(page, `${list.path} at 800 px`);
      await checkA11y();
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A back office list on a phone: one card per row, each field labelled, nothing cut off.
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto('/admin/users');
    const firstUser = page
      .getByRole('table', { name: /Users, page 1/ })
      .getByRole('row')
      .nth(1);
    await expect(firstUser).toHaveCSS('display', 'block');
    // Its label is shown on the card only (the column's heading names it for a screen reader: the cell's name is its value).
    const emailCell = firstUser.getByRole('cell').nth(3);
    await expect(emailCell.locator('[aria-hidden="true"]')).toHaveText('Email');
    await expect(emailCell.locator('[aria-hidden="true"]')).toBeVisible();
    await expect(firstUser.getByRole('cell', { name: '1', exact: true })).toHaveCount(1);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(firstUser).toHaveCSS('display', 'table-row');
    await expect(emailCell.locator('[aria-hidden="true"]')).toBeHidden();
  });

  test('a customer session opening the back office gets the staff login saying it is for staff only', async ({ page, checkA11y }) => {
    await page.goto('/signin');
    await waitForHydration(page);
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/account\/home$/);
    await expect(page).toHaveTitle('Dashboard - Ledgerline Bank');

    await page.goto('/admin/audit');
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Faudit&staffOnly=1$/);
    await expect(page.getByRole('status').filter({ hasText: 'The back office is for bank staff only.' })).toBeVisible();
    await checkA11y();
    // Still signed in as the customer: the link back leads to their accounts.
    await page.getByRole('link', { name: 'your accounts' }).click();
    await expect(page).toHaveURL(/\/account\/home$/);

    // A customer page opened without a session: the customer sign-in, then back to that page. The
    // signed-in page is left first: its own requests, answered 401 once the cookies are gone, would
    // send it to the sign-in on their own and abort the navigation below (seen in CI).
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto('/account/transactions');
    await expect(page).toHaveURL(/\/signin\?next=%2Faccount%2Ftransactions$/);
    await waitForHydration(page);
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/account\/transactions$/);
    await expect(page).toHaveTitle('Transactions - Ledgerline Bank');

    // A `next` to another site, or to the other area, is not followed.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto('/signin?next=//evil.example/account/home');
    await waitForHydration(page);
    await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/account\/home$/);
  });

  test('signing out of the account area logs nothing to the console, not even a refused call', async ({ page }) => {
    // Stricter than the suite's own check (which lets 4xx answers through): a sign-out must not leave a page asking for anything.
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') messages.push(`${message.type()}: ${message.text()} (${page.url()})`);
    });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/signin');
      await waitForHydration(page);
      await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page).toHaveURL(/\/account\/home$/);
      await page.goto('/account/transactions');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (width < 1024) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Account' }).locator('visible=true').getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/$/);
      await waitForHydration(page);
      expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    }
    expect(messages).toEqual([]);
  });
});
