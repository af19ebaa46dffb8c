import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { createDatabase } from '../src/server/db/database';
import { runningEmbeddedUrl } from '../src/server/db/embedded';
import { inTransaction } from '../src/server/db/transaction';
import { bankAccountId, postEntries } from '../src/server/ledger/posting';
import { bankMonth, bankMonthRange, previousMonth } from '../src/server/lib/bank-time';
import { expect, fromOurPages, newCustomer, tabTo, test, waitForHydration } from './support/fixtures';

// Statements in the browser (issue 14): a customer whose last month has four known transactions
// downloads its statement PDF and checks the totals with pdftotext (poppler-utils), exports the
// month as CSV and reads it, then, as a landlord would on the public page, checks the genuine PDF
// and a copy with one digit changed.

const dataDir = `/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`;

/** Last month's transactions: booked then (the server's calendar is UTC here), as the writer would have. */
const LAST_MONTH = [
  { day: '03', cents: 250_000, description: 'Salary', counterparty: 'Acme Payroll' },
  { day: '12', cents: -120_000, description: 'Rent - Harbor Street', counterparty: null },
  { day: '18', cents: 4_510, description: "=cmd|' /C calc'!A0", counterparty: null },
  { day: '25', cents: -1_825, description: 'Coffee, beans and milk', counterparty: 'Corner Cafe' },
];
const TOTAL_IN = 254_510;
const TOTAL_OUT = 121_825;
const CLOSING = 132_685;

/** Books last month's transactions on the customer's checking account, in the running bank's database. */
async function bookLastMonth(userId: string): Promise<string> {
  const url = runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const month = previousMonth(bankMonth(new Date(), 'UTC'));
  expect(bankMonthRange(month, 'UTC').to.getTime()).toBeLessThan(Date.now());
  const database = createDatabase(url, { max: 2 });
  try {
    const { db } = database;
    const checking = await db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('owner_id', '=', userId)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    const operations = await bankAccountId(db, 'bank_operations');
    for (const line of LAST_MONTH) {
      await inTransaction(db, (trx) =>
        postEntries(
          trx,
          [
            {
              kind: 'adjustment',
              description: line.description,
              authorId: null,
              postings: [
                { accountId: checking.id, amountCents: line.cents, counterparty: line.counterparty },
                { accountId: operations, amountCents: -line.cents },
              ],
            },
          ],
          { now: new Date(`${month}-${line.day}T12:00:00Z`) },
        ),
      );
    }
  } finally {
    await database.close();
  }
  return month;
}

const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);
const monthName = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

/** Saves what a click downloads and answers its path and suggested name. */
async function downloadFrom(page: Page, start: () => Promise<void>): Promise<{ path: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), start()]);
  const path = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(path);
  return { path, name: download.suggestedFilename() };
}

for (const width of [1280, 375]) {
  test(`a customer downloads a statement and a CSV, and a landlord tells the genuine PDF from an edited one, at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    // Signed up in the page's cookie jar: the page is then signed in as them.
    const customer = await newCustomer(page.request, page, { firstName: width === 375 ? 'Mobile' : 'Desktop', lastName: 'Statement' });
    const month = await bookLastMonth(customer.id);

    await page.goto('/account/statements');
    await expect(page.getByRole('heading', { name: 'Statements', level: 1 })).toBeVisible();
    const statementButton = page.getByRole('button', { name: `Download the Checking statement for ${monthName(month)} (PDF)` });
    await expect(statementButton).toBeVisible();
    await expect(page.getByText('Made when you first download it')).toBeVisible();
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`statements-${width}.png`), fullPage: true });

    // The statement, with the keyboard: its totals, read by pdftotext, are the month's.
    await tabTo(page, statementButton);
    const pdf = await downloadFrom(page, () => page.keyboard.press('Enter'));
    expect(pdf.name).toBe(`statement-checking-${month}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', pdf.path, '-']).toString('utf8');
    const summary = text.split('\n')[text.split('\n').findIndex((line) => /Opening balance\s+Money in\s+Money out\s+Closing balance/.test(line)) + 1]!;
    expect(
      summary
        .trim()
        .split(/\s{2,}/)
        .map(cents),
    ).toEqual([0, TOTAL_IN, TOTAL_OUT, CLOSING]);
    const rows = [...text.matchAll(/^(\d{4}-\d{2}-\d{2})\s+(.+?)\s+(-?\$[\d,]+\.\d{2})\s+(-?\$[\d,]+\.\d{2})\s*$/gm)];
    expect(rows.map((row) => [row[1], cents(row[3]!)])).toEqual(LAST_MONTH.map((line) => [`${month}-${line.day}`, line.cents]));
    let running = 0;
    for (const row of rows) expect(cents(row[4]!)).toBe((running += cents(row[3]!)));
    expect(running).toBe(CLOSING);
    expect(text).toContain(`Check that this statement is genuine at ${fromOurPages().origin}/verify-statement`);
    // Once made, the list says when it was issued.
    await expect(page.getByText(/^Checking · Issued /)).toBeVisible();

    // The month as CSV, through the export form.
    const form = page.getByRole('form', { name: 'Export transactions' });
    await form.getByLabel('From').fill(`${month}-01`);
    await form.getByLabel('To').fill(`${month}-28`);
    await form.getByLabel('Format').selectOption('csv');
    const csv = await downloadFrom(page, () => form.getByRole('button', { name: 'Download export' }).click());
    expect(csv.name).toBe(`transactions-checking-${month}-01-to-${month}-28.csv`);
    const lines = fs.readFileSync(csv.path, 'utf8').split('\r\n');
    expect(lines[0]).toBe('Date,Value date,Description,Counterparty,Amount,Balance,Currency,Transaction ID');
    expect(lines[1]).toMatch(new RegExp(`^${month}-03,${month}-03,Salary,Acme Payroll,2500\\.00,2500\\.00,USD,`));
    expect(lines[2]).toMatch(/,Rent - Harbor Street,,-1200\.00,1300\.00,USD,/);
    // A formula in a description arrives as text, not as something a spreadsheet would run.
    expect(lines[3]).toMatch(/,'=cmd\|' \/C calc'!A0,,45\.10,1345\.10,USD,/);
    expect(lines[4]).toMatch(/,"Coffee, beans and milk",Corner Cafe,-18\.25,1326\.85,USD,/);
    expect(lines.slice(5)).toEqual(['']);
    // A range the bank refuses is said on the page.
    await form.getByLabel('From').fill(`${month}-28`);
    await form.getByLabel('To').fill(`${month}-01`);
    await form.getByRole('button', { name: 'Download export' }).click();
    await expect(form.getByRole('alert')).toHaveText('The start date must be on or before the end date');
    // Empty dates are asked for as the date pickers show them (not as the API's YYYY-MM-DD).
    await form.getByLabel('From').fill('');
    await form.getByLabel('To').fill('');
    await form.getByRole('button', { name: 'Download export' }).click();
    await expect(form.getByRole('alert')).toHaveText('Choose a start and an end date.');
    await checkA11y();

    // A landlord, on the public page: the genuine file...
    await page.goto('/verify-statement');
    await expect(page.getByRole('heading', { name: 'Verify a statement', level: 1 })).toBeVisible();
    await checkA11y();
    await page.getByLabel('Statement PDF').setInputFiles(pdf.path);
    await page.getByRole('button', { name: 'Check statement' }).click();
    const genuine = page.getByRole('status').filter({ hasText: 'Genuine statement' });
    await expect(genuine).toBeVisible();
    await expect(genuine).toContainText(`${width === 375 ? 'Mobile' : 'Desktop'} Statement`);
    await expect(genuine).toContainText(monthName(month));
    await expect(genuine).toContainText(/Checking \*{6}\d{4}/);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`verify-genuine-${width}.png`), fullPage: true });

    // ...and the same file with the closing balance's first digit changed ($1,326.85 -> $7,326.85).
    const bytes = fs.readFileSync(pdf.path);
    const hex = (value: string) => Buffer.from(value, 'latin1').toString('hex');
    const source = bytes.toString('latin1');
    expect(source).toContain(`<${hex('$1,326.85')}>`);
    const tamperedPath = test.info().outputPath('tampered.pdf');
    fs.writeFileSync(tamperedPath, Buffer.from(source.replaceAll(`<${hex('$1,326.85')}>`, `<${hex('$7,326.85')}>`), 'latin1'));
    expect(execFileSync('pdftotext', ['-layout', tamperedPath, '-']).toString('utf8')).toContain('$7,326.85');
    await page.getByLabel('Statement PDF').setInputFiles(tamperedPath);
    await page.getByRole('button', { name: 'Check statement' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Not a genuine statement' })).toBeVisible();
    await expect(page.getByText('Genuine statement', { exact: true })).toHaveCount(0);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`verify-tampered-${width}.png`), fullPage: true });

    // A file that calls itself an interim statement (as this month's download does: not signed, not
    // kept) is told that it cannot be verified, not that it was edited.
    expect(source).toMatch(/\/Subject \d+ 0 R/);
    const interimPath = test.info().outputPath('interim.pdf');
    fs.writeFileSync(interimPath, Buffer.from(source.replace(/\(Statement [0-9a-f-]{36}\)/, '(Interim statement \\(not signed\\))'), 'latin1'));
    await page.getByLabel('Statement PDF').setInputFiles(interimPath);
    await page.getByRole('button', { name: 'Check statement' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'An interim statement: it cannot be verified' })).toBeVisible();
    await expect(page.getByText('Not a genuine statement')).toHaveCount(0);
    await checkA11y();

    // The wrong file is told as such, not taken for an edited statement: an empty one, and one that is no PDF.
    const emptyPath = test.info().outputPath('empty.pdf');
    fs.writeFileSync(emptyPath, '');
    await page.getByLabel('Statement PDF').setInputFiles(emptyPath);
    await page.getByRole('button', { name: 'Check statement' }).click();
    await expect(page.getByRole('alert')).toHaveText('That file is empty. Please choose the statement PDF exactly as it was downloaded.');
    // The field says it too, as its description, and is marked invalid (as every form's fields are).
    await expect(page.getByLabel('Statement PDF')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Statement PDF')).toHaveAccessibleDescription(
      /^That file is empty\. Please choose the statement PDF exactly as it was downloaded\. The file/,
    );
    const textPath = test.info().outputPath('statement.txt');
    fs.writeFileSync(textPath, 'Closing balance $1,326.85');
    await page.getByLabel('Statement PDF').setInputFiles(textPath);
    await page.getByRole('button', { name: 'Check statement' }).click();
    await expect(page.getByRole('alert')).toHaveText('statement.txt is not a PDF. Please choose the statement PDF exactly as it was downloaded.');
    await expect(page.getByRole('status').filter({ hasText: 'Not a genuine statement' })).toHaveCount(0);
    await checkA11y();
  });
}

test('the public site links to the verifier from its footer', async ({ page }) => {
  await page.goto('/');
  // A click while React takes over the prerendered page can be lost (seen once in CI): click once it has.
  await waitForHydration(page);
  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Verify a statement' }).click();
  await expect(page).toHaveURL(/\/verify-statement$/);
  await expect(page.getByRole('heading', { name: 'Verify a statement', level: 1 })).toBeVisible();
});
