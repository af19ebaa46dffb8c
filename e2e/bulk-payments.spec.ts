import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO_CUSTOMER, DEMO_CUSTOMER_2, demoMoneyTest as test, expect, fromOurPages, lastMailId, mailedCode, signInAs, tabTo } from './support/fixtures';

// Paying twenty people from one CSV file (issue 14): the file is previewed row by row, a row the
// bank refuses is shown on its row and nothing is paid, then the corrected file is approved with
// one IMS code and every row is paid. At a phone's and a laptop's width, axe on every step,
// driven from the keyboard where a customer would use it. It pays from a demo customer and checks
// their balance, so it takes the demo-money lock as the other money journeys do.

const money = (dollars: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);

async function accountOf(request: APIRequestContext, user: { email: string; password: string }) {
  const response = await request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { user: { account: { number: string; savings: number; checking: number } } } }).data.user.account;
}

async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

/**
 * The table reads whole at the page's width: its box does not scroll sideways and every cell (an
 * amount, a row's problems, an entry) is in view across. At 375 px each row is a card: the
 * scrolling table showed a phone the row number, account and name, and cut the rest off.
 */
async function expectReadsWhole(table: Locator, width: number) {
  const { scrolls, cells } = await table.evaluate((element) => {
    const box = element.parentElement!;
    return {
      scrolls: box.scrollWidth - box.clientWidth,
      cells: [...element.querySelectorAll('tbody tr > *')].map((cell) => {
        const { left, right } = cell.getBoundingClientRect();
        return { text: cell.textContent ?? '', left, right };
      }),
    };
  });
  expect(scrolls, `the table's box scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  for (const cell of cells) {
    expect(cell.left, `"${cell.text}" in view at ${width} px`).toBeGreaterThanOrEqual(0);
    expect(cell.right, `"${cell.text}" in view at ${width} px`).toBeLessThanOrEqual(width);
  }
}

for (const width of [375, 1280]) {
  test(`pays a 20-row CSV file at ${width} px`, async ({ page, checkA11y, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const payee = await accountOf(request, DEMO_CUSTOMER_2);
    const payer = await accountOf(request, DEMO_CUSTOMER);
    // Different cents per viewport, so the two runs' payments are told apart in the history.
    const cents = width === 375 ? 11 : 37;
    const rows = Array.from({ length: 20 }, (_, index) => ({
      accountNumber: payee.number,
      amount: `${index + 1}.${cents}`,
      // The payee is the other demo customer: her name on every row but two (confirmation of payee, ADR 029).
      name: index === 4 ? 'J Lee' : index === 11 ? `Staff ${index + 1}` : 'Jamie Lee',
      description: `Payroll ${width} row ${index + 1}`,
    }));
    const totalDollars = rows.reduce((sum, row) => sum + Number(row.amount), 0);
    const csv = ['accountNumber,amount,name,description', ...rows.map((row) => `${row.accountNumber},${row.amount},${row.name},${row.description}`)].join('\n');

    await signInAs(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/account\/home$/);
    await page.goto('/account/transfers');
    await page.getByRole('link', { name: /Bulk Payments/ }).click();
    await expect(page).toHaveURL(/\/account\/bulk-payments$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Bulk Payments' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download the template' })).toHaveAttribute('href', '/api/transaction/bulk/template.csv');
    // The account select and the file field look as usable as they are (white, not a disabled grey).
    for (const field of [page.getByLabel('Pay from'), page.getByLabel('CSV file')])
      expect(await field.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 255, 255)');
    // The form's first line starts right under the card's padding, as every card's content does:
    // the error's empty live region above it once pushed the form 20 px further down.
    const belowPadding = await page.locator('label', { hasText: 'Pay from' }).evaluate((label) => {
      const card = label.closest('section');
      if (!card) return Number.NaN;
      const style = getComputedStyle(card);
      return label.getBoundingClientRect().top - card.getBoundingClientRect().top - parseFloat(style.borderTopWidth) - parseFloat(style.paddingTop);
    });
    expect(belowPadding, 'space between the bulk payment card and its first field').toBeCloseTo(0, 0);
    await checkA11y();

    // Nothing chosen: the form says so.
    const preview = page.getByRole('button', { name: 'Preview payments' });
    await tabTo(page, preview);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('Choose a CSV file or paste your payments');

    // Pasted rows with a problem the page sees (an amount) and one only the bank sees (an unknown account).
    const pasted = page.getByLabel('Or paste your payments (CSV, with the header line)');
    await tabTo(page, pasted);
    await pasted.fill(['accountNumber,amount,name,description', `${payee.number},12.5,Staff A,Bonus`, `${payee.number},12.555,Staff B,Bonus`].join('\n'));
    await tabTo(page, preview);
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: /Payments to make/ });
    await expect(table.getByRole('row')).toHaveCount(3);
    // The row's problem is a cell of its row (a screen reader hears it with the row), in view with its amount.
    // Rows are numbered as a spreadsheet shows the file: the header is row 1, the second payment row 3.
    await expect(table.getByRole('row', { name: /^3 / }).getByRole('cell', { name: 'Amount can have at most 2 decimal places' })).toBeVisible();
    await expectReadsWhole(table, width);
    await expect(page.getByRole('button', { name: 'Send for approval' })).toBeDisabled();
    // No total while an amount cannot be read: a partial sum would look like what is about to be paid.
    await expect(page.getByText('2 payments from your checking account: the total is shown once every amount is correct.')).toBeVisible();
    await checkA11y();
    await page.getByRole('button', { name: 'Choose another file' }).click();
    // The preview and the button pressed are gone: focus is on the form's first field.
    await expect(page.getByLabel('Pay from')).toBeFocused();

    await page
      .getByLabel('Or paste your payments (CSV, with the header line)')
      .fill(['accountNumber,amount,name,description', `${payee.number},12.50,Staff A,Bonus`, `1234567897,3,Nobody,Bonus`].join('\n'));
    await page.getByRole('button', { name: 'Preview payments' }).click();
    await page.getByRole('button', { name: 'Send for approval' }).click();
    await expect(page.getByRole('alert')).toContainText('Some payments cannot be made. Nothing was paid');
    await expect(table.getByRole('row', { name: /^3 / })).toContainText('No account with this number at this bank');
    await expect(table.getByRole('row', { name: /^2 / })).not.toContainText('No account');
    await expect(table.getByRole('row', { name: /^3 / }).getByRole('cell', { name: 'No account with this number at this bank' })).toBeVisible();
    // The alert names the rows too, the table shows every row's problems in view, and nothing scrolls sideways.
    await expect(page.getByRole('alert')).toContainText('Row 3: No account with this number at this bank');
    await expectReadsWhole(table, width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`refused-${width}.png`), fullPage: true });
    expect((await accountOf(request, DEMO_CUSTOMER)).checking).toBe(payer.checking);

    // The corrected file, uploaded.
    await page.getByRole('button', { name: 'Choose another file' }).click();
    await page.getByLabel('CSV file').setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByLabel('Or paste your payments (CSV, with the header line)')).toHaveValue(csv);
    await page.getByRole('button', { name: 'Preview payments' }).click();
    await expect(table.getByRole('row')).toHaveCount(21);
    await expect(page.getByText(`20 payments from your checking account, total ${money(totalDollars)}.`)).toBeVisible();
    await expect(table.getByRole('row', { name: /^21 / })).toContainText(money(20 + cents / 100));
    await expectReadsWhole(table, width);
    await checkA11y();
    const after = await lastMailId(page);
    const send = page.getByRole('button', { name: 'Send for approval' });
    await tabTo(page, send);
    await page.keyboard.press('Enter');

    await expect(page.getByRole('heading', { name: 'Approve this bulk payment' })).toBeVisible();
    await expect(page.getByText(/works only for exactly these payments/)).toBeVisible();
    // The rows whose name is not the holder's are named before the payer approves (a close match without the holder's name).
    const checks = page.getByRole('alert').filter({ hasText: "2 of 20 names are not the account holder's name." });
    await expect(checks).toBeVisible();
    await expect(checks.getByRole('listitem')).toHaveText([
      'Row 6 (J Lee): close to the account holder’s name, but not the same.',
      'Row 13 (Staff 12): does not match this account.',
    ]);
    await noToasts(page);
    await checkA11y();
    const code = page.getByLabel('IMS code');
    await tabTo(page, code);
    await page.keyboard.type(await mailedCode(page, DEMO_CUSTOMER.email, after));
    await page.keyboard.press('Enter');

    await expect(
      page
        .getByRole('alert')
        .or(page.getByRole('status'))
        .filter({ hasText: `Paid 20 payments, total ${money(totalDollars)}.` }),
    ).toBeVisible();
    const made = page.getByRole('table', { name: /Payments made/ });
    await expect(made.getByRole('row')).toHaveCount(21);
    await expectReadsWhole(made, width);
    await noToasts(page);
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`paid-${width}.png`), fullPage: true });

    expect((await accountOf(request, DEMO_CUSTOMER)).checking).toBeCloseTo(payer.checking - totalDollars, 2);
    // Each payment is named by the Transaction ID its line has in the history (and in statements and exports).
    const lines = (await (await request.get(`/api/transaction?pageSize=5&q=${encodeURIComponent(`Payroll ${width} row 20`)}`)).json()) as {
      data: { items: Array<{ _id: string; description: string }> };
    };
    const line = lines.data.items.find((item) => item.description === `Payroll ${width} row 20`);
    expect(line).toBeDefined();
    await expect(made.getByRole('row').filter({ hasText: line!._id })).toHaveCount(1);
    await page.getByRole('link', { name: 'transactions', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/transactions$/);
    await expect(page.getByText(`Payroll ${width} row 20`).first()).toBeVisible();
  });
}
