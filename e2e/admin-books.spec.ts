import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { AppContext } from '../src/server/context';
import { createDatabase } from '../src/server/db/database';
import { runningEmbeddedUrl } from '../src/server/db/embedded';
import { inTransaction } from '../src/server/db/transaction';
import { bankAccountId, postEntries } from '../src/server/ledger/posting';
import { bankDate } from '../src/server/lib/bank-time';
import { closeEndedDays } from '../src/server/reports/service';
import { ADMIN, expect, fromOurPages, newCustomer, signInAs, tabTo, test, approvedStaffCall, approveAsSecondStaff } from './support/fixtures';

// The back office's books in the browser (issue 15): staff find a customer's entries in the whole
// journal with its filters, open an entry (all its postings, its link on the hash chain), reverse
// it and follow the reversal; read yesterday's trial balance and download it as CSV and PDF; ask an
// account's balance at a past date; and add a note on the customer's page, which the audit log
// records. At a phone's width and a laptop's, axe on every page, the keyboard for the main steps.

const dataDir = `/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`;
/** Shared by both widths (and a retried worker): yesterday can be closed only once. */
const setupFile = path.join(dataDir, 'admin-books-setup.json');
const ZONE = 'UTC'; // the e2e server's BANK_TIMEZONE (the default)
const YESTERDAY_CENTS = 73_415;

interface Setup {
  customer: { id: string; email: string; name: string };
  checking: { id: string; number: string };
  /** The bank day the entry below was booked on; the end-of-day run closed it afterwards. */
  day: string;
  dayBefore: string;
  description: string;
}

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const longDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Books a credit on the customer's checking account yesterday (as the writer would have, in the
 * running bank's database), then runs the end-of-day job's task, which closes every ended day:
 * the job runs every 15 minutes and a test cannot wait for it.
 */
async function bookYesterdayAndClose(customer: Setup['customer']): Promise<Setup> {
  const url = runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const day = shiftDay(bankDate(new Date(), ZONE), -1);
  const description = `Books e2e credit ${customer.email}`;
  const database = createDatabase(url, { max: 2 });
  try {
    const { db } = database;
    const checking = await db
      .selectFrom('ledger_accounts')
      .select(['id', 'number'])
      .where('owner_id', '=', customer.id)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    const operations = await bankAccountId(db, 'bank_operations');
    await inTransaction(db, (trx) =>
      postEntries(
        trx,
        [
          {
            kind: 'adjustment',
            description,
            authorId: null,
            postings: [
              { accountId: checking.id, amountCents: YESTERDAY_CENTS, counterparty: 'Books e2e' },
              { accountId: operations, amountCents: -YESTERDAY_CENTS },
            ],
          },
        ],
        { now: new Date(`${day}T12:00:00Z`) },
      ),
    );
    const ctx = { db, config: { timeZone: ZONE }, clock: { now: () => new Date() }, log: { info: () => undefined } } as unknown as AppContext;
    const closed = await closeEndedDays(ctx);
    // Were yesterday closed before the entry was booked (a job tick in between), the figures below could not hold.
    expect(closed, 'this run closed yesterday').toContain(day);
    return { customer, checking: { id: checking.id, number: checking.number ?? '' }, day, dayBefore: shiftDay(day, -1), description };
  } finally {
    await database.close();
  }
}

async function setUp(page: Page): Promise<Setup> {
  if (fs.existsSync(setupFile)) return JSON.parse(fs.readFileSync(setupFile, 'utf8')) as Setup;
  // A customer of the books' own, signed up in the page's cookie jar, which is then cleared for the staff sign-in.
  const { id, email, name } = await newCustomer(page.request, page, { firstName: 'Rowan', lastName: 'Ledgerwood', prefix: 'books' });
  await page.context().clearCookies();
  const setup = await bookYesterdayAndClose({ id, email, name });
  fs.writeFileSync(setupFile, JSON.stringify(setup));
  return setup;
}

/** Saves what a click downloads and answers its path and suggested name. */
async function downloadFrom(page: Page, start: () => Promise<void>): Promise<{ path: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), start()]);
  const saved = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(saved);
  return { path: saved, name: download.suggestedFilename() };
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

for (const width of [375, 1280]) {
  test(`staff read the whole journal, an entry and its reversal, the trial balance and a customer's timeline at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const setup = await setUp(page);
    const { customer } = setup;
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // Today's staff credit, unique to this width, to find, open and reverse.
    const todayCents = width * 100 + 17;
    const todayText = `Books e2e staff credit at ${width} px`;
    const posted = await page.request.post(`/api/transaction/admin/${customer.id}`, {
      headers: { 'idempotency-key': crypto.randomUUID(), ...fromOurPages() },
      data: { amount: todayCents / 100, transactionType: 'credit', date: bankDate(new Date(), ZONE), description: todayText, reason: 'Books e2e journey' },
    });
    expect((await approvedStaffCall(posted)).status).toBe(201);
    const todayMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(todayCents / 100);

    // ---------------------------------------------------------------- the whole journal
    await page.goto('/admin/journal');
    await expect(page).toHaveTitle('Journal - Ledgerline Bank back office');
    await expect(page.getByRole('heading', { name: 'Journal', level: 1 })).toBeVisible();
    // One list at every width (DataTable): a table from 768 px, a card per entry below it.
    const list = page.getByRole('table', { name: 'Journal entries, newest first' });
    const rows = list.getByTestId('journal-row');
    await expect(rows.first()).toBeVisible();
    await checkA11y();

    // The customer's entries (by email), then only those of exactly yesterday's amount.
    // On a phone the filters are folded away behind one button (the entries come first), and fold again once applied.
    const openFilters = async () => {
      if (width >= 768) return;
      const toggle = page.getByRole('button', { name: /^Filters/ });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    };
    await openFilters();
    await page.getByLabel('Customer', { exact: true }).fill(customer.email);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`customer=${escape(encodeURIComponent(customer.email))}`));
    await expect(list).toContainText(setup.description);
    await expect(list).toContainText(todayText);
    if (width < 768) await expect(page.getByRole('button', { name: 'Filters 1 active' })).toBeVisible();
    await openFilters();
    await page.getByLabel('Amount from').fill('734.15');
    await page.getByLabel('Amount to').fill('734.15');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(/amountMin=734\.15&amountMax=734\.15/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(setup.description);
    await expect(rows.first()).toContainText('$734.15');
    await expect(rows.first()).toContainText('Operations adjustments (bank)');

    // A range the wrong way round is refused at its field by the API's own contract; the address stays.
    const before = page.url();
    await openFilters();
    await page.getByLabel('Amount from').fill('900');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Amount to must not be below Amount from' })).toBeVisible();
    await expect(page.getByLabel('Amount to')).toHaveAttribute('aria-invalid', 'true');
    expect(page.url()).toBe(before);
    await checkA11y();

    // Today's credit, by kind and amount; opened with the keyboard.
    await page.getByLabel('Amount from').fill((todayCents / 100).toFixed(2));
    await page.getByLabel('Amount to').fill((todayCents / 100).toFixed(2));
    await page.getByLabel('Entry kind').selectOption('adjustment');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page).toHaveURL(/kind=adjustment/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(todayText);
    await shot(page, `journal-${width}`);
    const entryLink = rows.first().getByRole('link', { name: new RegExp(`^Entry [\\d,]+ ?: ${escape(todayText)}$`) });
    await tabTo(page, entryLink);
    await page.keyboard.press('Enter');

    // ---------------------------------------------------------------- the entry page
    await expect(page).toHaveURL(/\/admin\/journal\/[0-9a-f-]{36}$/);
    const entryHeading = page.getByRole('heading', { name: /^Entry [\d,]+$/, level: 1 });
    await expect(entryHeading).toBeVisible();
    const seq = ((await entryHeading.textContent()) ?? '').replace(/\D/g, '');
    await expect(page).toHaveTitle('Journal entry - Ledgerline Bank back office');
    const postings = page.getByTestId('posting-row');
    await expect(postings).toHaveCount(2);
    const customerPosting = postings.filter({ hasText: setup.checking.number });
    await expect(customerPosting).toContainText(`+${todayMoney}`);
    await expect(customerPosting.getByRole('link', { name: customer.name })).toHaveAttribute('href', `/admin/users/${customer.id}`);
    await expect(postings.filter({ hasText: 'Operations adjustments (bank)' })).toContainText(`−${todayMoney}`);
    // Its link on the chain: the sealer chains a new entry within a second or so.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('entry-hash')).toHaveText(/^[0-9a-f]{64}$/, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId('entry-prev-hash')).toHaveText(/^[0-9a-f]{64}$/);
    // The chain link: the previous entry's own hash is this entry's previous hash.
    const prevHash = (await page.getByTestId('entry-prev-hash').textContent()) ?? '';
    const entryUrl = page.url();
    await page.getByRole('link', { name: 'Previous entry on the chain' }).click();
    await expect(page).not.toHaveURL(entryUrl);
    await expect(page.getByTestId('entry-hash')).toHaveText(prevHash);
    await page.goBack();
    await expect(page).toHaveURL(entryUrl);
    await expect(page.getByTestId('entry-audit').first()).toContainText(ADMIN.email);
    await checkA11y();
    await shot(page, `entry-${width}`);

    // Reverse it with the keyboard; the entry then links to its reversal, and the reversal back.
    await tabTo(page, page.getByRole('button', { name: 'Reverse this entry' }));
    await page.keyboard.press('Enter');
    await page.getByLabel('Reason').fill('Booked twice by mistake');
    await tabTo(page, page.getByRole('button', { name: 'Yes, reverse it' }));
    await page.keyboard.press('Enter');
    // Four eyes (ADR 023): the reversal waits for the second staff member, who approves it.
    await expect(page.getByText('Reversal requested - awaiting approval by a second staff member').first()).toBeVisible();
    await approveAsSecondStaff((item) => item.kind === 'reversal' && item.payload.reason === 'Booked twice by mistake');
    await page.reload();
    const reversedBy = page.getByRole('definition').filter({ has: page.getByRole('link', { name: /^Reversal: / }) });
    await expect(reversedBy).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reverse this entry' })).toHaveCount(0);
    await checkA11y();
    await reversedBy.getByRole('link').click();
    await expect(page.getByRole('heading', { name: /^Entry [\d,]+$/, level: 1 })).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: 'Reverses' })).toBeVisible();
    await expect(page.getByRole('link', { name: todayText })).toBeVisible();
    await expect(postings.filter({ hasText: setup.checking.number })).toContainText(`−${todayMoney}`);
    await expect(page.getByText('Booked twice by mistake').first()).toBeVisible();
    await checkA11y();

    // Paging by key: the customer's entries older than today's credit, then the page newer than those.
    await page.goto(`/admin/journal?customer=${encodeURIComponent(customer.email)}&older=${seq}`);
    await expect(list).toContainText(setup.description);
    await expect(list).not.toContainText(todayText);
    await expect(page.getByRole('link', { name: 'Older entries' })).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Journal pages' }).getByRole('link', { name: 'Newer entries' }).click();
    await expect(page).toHaveURL(/newer=\d+/);
    await expect(list).toContainText(`Reversal: ${todayText}`);
    await expect(list).not.toContainText(setup.description);
    await checkA11y();

    // ---------------------------------------------------------------- reports
    await page.goto('/admin/reports');
    await expect(page).toHaveTitle('Reports - Ledgerline Bank back office');
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    // Balance at a date lists each of the bank's own accounts once.
    const bankAccounts = page.getByRole('form', { name: 'Balance at a date' }).getByLabel('Account').locator('option:not([value=""])');
    await expect(bankAccounts.first()).toBeAttached();
    const accountLabels = await bankAccounts.allTextContents();
    expect(accountLabels.length).toBeGreaterThan(1);
    expect(new Set(accountLabels).size).toBe(accountLabels.length);
    await page.getByLabel('Bank day').fill(setup.day);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`date=${setup.day}`));
    await expect(page.getByText(`${longDay(setup.day)} (UTC)`).first()).toBeVisible();
    const lines = page.getByTestId('trial-balance-row');
    const line = lines.filter({ hasText: setup.checking.number });
    await expect(line).toHaveCount(1);
    // Opening, debits, credits, closing: nothing before, the one credit, and what it left.
    await expect(line).toContainText(/\$0\.00.*\$0\.00.*\$734\.15.*\$734\.15/);
    const totals = page.getByTestId('trial-balance-total-row');
    const totalsText = (await totals.textContent()) ?? '';
    const figures = [...totalsText.matchAll(/-?\$[\d,]+\.\d{2}/g)].map((match) => match[0]);
    expect(figures).toHaveLength(4);
    expect(figures[0]).toBe('$0.00');
    expect(figures[3]).toBe('$0.00');
    expect(figures[1]).toBe(figures[2]);
    await checkA11y();
    await shot(page, `reports-${width}`);

    const csvButton = page.getByRole('button', { name: `Download the trial balance of ${longDay(setup.day)} (CSV)` });
    await tabTo(page, csvButton);
    const csv = await downloadFrom(page, () => page.keyboard.press('Enter'));
    expect(csv.name).toBe(`trial-balance-${setup.day}.csv`);
    const csvLines = fs.readFileSync(csv.path, 'utf8').trim().split('\n');
    expect(csvLines[0]).toBe('date,account,account_number,kind,opening,debits,credits,closing');
    expect(csvLines).toContain(`${setup.day},${customer.name} - Checking,${setup.checking.number},checking,0.00,0.00,734.15,734.15`);
    expect(csvLines.at(-1)).toMatch(new RegExp(`^${setup.day},Total,,,0\\.00,(\\d+\\.\\d{2}),\\1,0\\.00$`));
    const pdf = await downloadFrom(page, () => page.getByRole('button', { name: `Download the trial balance of ${longDay(setup.day)} (PDF)` }).click());
    expect(pdf.name).toBe(`trial-balance-${setup.day}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', pdf.path, '-']).toString('utf8');
    expect(text).toContain(setup.day);
    expect(text).toMatch(new RegExp(`${setup.checking.number}\\s+\\$?0\\.00\\s+\\$?0\\.00\\s+\\$?734\\.15\\s+\\$?734\\.15`));

    // ---------------------------------------------------------------- the customer page
    await page.goto(`/admin/users/${customer.id}`);
    await expect(page.getByRole('heading', { name: customer.name, level: 1 })).toBeVisible();
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await expect(timeline.getByRole('link', { name: 'Adjustment' }).first()).toBeVisible();
    await checkA11y();

    // An empty note is refused by the contract; a written one is added with the keyboard and audited.
    const addNote = page.getByRole('button', { name: 'Add note' });
    await addNote.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Write the note first' })).toBeVisible();
    const note = `Called the customer about the ${width} px credit; all in order.`;
    await page.getByLabel('Note', { exact: true }).fill(note);
    await tabTo(page, addNote);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Note added', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Note', { exact: true })).toHaveValue('');
    const newest = timeline.getByTestId('timeline-event').first();
    await expect(newest).toContainText('Staff note');
    await expect(newest).toContainText(note);
    await expect(newest).toContainText(`By ${ADMIN.email}`);
    await checkA11y();
    await shot(page, `customer-timeline-${width}`);

    // Balance at a date, from the customer page: the checking account at the end of yesterday and the day before.
    await page.getByRole('link', { name: 'Balance at a date' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/reports\\?owner=${customer.id}$`));
    const form = page.getByRole('form', { name: 'Balance at a date' });
    await form.getByLabel('Account').selectOption({ label: `Checking ${setup.checking.number} · ${customer.name}` });
    await form.getByLabel('End of day').fill(setup.day);
    await tabTo(page, form.getByRole('button', { name: 'Show balance' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('balance-at')).toHaveText(
      `Checking ${setup.checking.number} · ${customer.name} at the end of ${longDay(setup.day)} (UTC): $734.15`,
    );
    await form.getByLabel('End of day').fill(setup.dayBefore);
    await form.getByRole('button', { name: 'Show balance' }).click();
    await expect(page.getByTestId('balance-at')).toHaveText(
      `Checking ${setup.checking.number} · ${customer.name} at the end of ${longDay(setup.dayBefore)} (UTC): $0.00`,
    );
    // Today has not ended: the server says so.
    await form.getByLabel('End of day').fill(bankDate(new Date(), ZONE));
    await form.getByRole('button', { name: 'Show balance' }).click();
    await expect(form.getByRole('alert')).toContainText('Choose a day that has ended');
    await checkA11y();

    // The note is in the audit log, under the customer.
    await page.goto(`/admin/audit?customer=${customer.id}&action=user.note`);
    await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
    const log = page.getByRole('table', { name: 'Audit log, newest first' });
    await expect(log.getByRole('row').filter({ hasText: 'user.note' }).first()).toContainText(ADMIN.email);
  });
}
