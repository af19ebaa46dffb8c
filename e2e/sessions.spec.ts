import type { Browser, BrowserContext, Page } from '@playwright/test';
import { ADMIN, CUSTOMER_PASSWORD, expect, newCustomer, signInAs, test } from './support/fixtures';

// Sessions a customer can see and end (issue 13). Each test has its own customer: ending sessions
// of a demo customer would sign out the other journeys running beside it.

// Each browser says it is another device, so the lists name them apart.
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A browser of its own (its own cookies), signed in through the sign-in page. */
async function signedInBrowser(browser: Browser, email: string, userAgent?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(userAgent ? { userAgent } : {});
  const page = await context.newPage();
  await signInAs(page, { email, password: CUSTOMER_PASSWORD });
  await expect(page).toHaveURL(/\/account\/home$/);
  return { context, page };
}

const stillSignedIn = async (context: BrowserContext) => (await context.request.get('/api/auth/user')).status();

test('the security page ends another session, staff end one from the user page, and "Sign out everywhere else" ends the rest', async ({
  page,
  browser,
  request,
  checkA11y,
}) => {
  // Five browsers and the back office on a busy machine.
  test.setTimeout(180_000);
  const customer = await newCustomer(request, page, { firstName: 'Sasha', lastName: 'Devices', prefix: 'sessions' });
  const laptop = await signedInBrowser(browser, customer.email);
  const phone = await signedInBrowser(browser, customer.email, IPHONE);

  // From the settings menu to the security page, with the keyboard.
  await laptop.page.goto('/account/settings');
  await laptop.page.getByRole('link', { name: /Security/ }).focus();
  await laptop.page.keyboard.press('Enter');
  await expect(laptop.page).toHaveURL(/\/account\/security$/);
  await expect(laptop.page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  const list = laptop.page.getByRole('list', { name: 'Your sessions' });
  // The API sign-in of the set-up, the laptop and the phone.
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(list.getByRole('listitem').filter({ hasText: 'This device' })).toContainText('Chrome on Linux');
  await checkA11y(laptop.page);
  await laptop.page.setViewportSize({ width: 375, height: 800 });
  await checkA11y(laptop.page);
  await laptop.page.setViewportSize({ width: 1280, height: 800 });

  // Each button names its session: the device, the address and when it signed in (two of one browser differ by that).
  const names = await list.getByRole('button', { name: /^End session/ }).evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(name).toMatch(/^End session: .+, signed in .+\d/);
  expect(new Set(names).size).toBe(names.length);

  expect(await stillSignedIn(phone.context)).toBe(200);
  await list
    .getByRole('listitem')
    .filter({ hasText: 'Safari on iPhone' })
    .getByRole('button', { name: /^End session/ })
    .click();
  await expect(laptop.page.getByText('Session ended').first()).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // The button pressed is gone with its session: focus stays with the sessions (the End session button
  // of the row that took its place, or the list's heading when that row is this device's), not the page.
  const sessionsHeading = laptop.page.getByRole('heading', { name: 'Where you are signed in' });
  const sessionsRegion = laptop.page.getByRole('region', { name: 'Where you are signed in' });
  await expect(sessionsRegion.locator(':focus')).toHaveCount(1);
  expect(await laptop.page.evaluate(() => document.activeElement === document.body)).toBe(false);
  expect(await stillSignedIn(phone.context)).toBe(401);
  // The phone's page finds out at its next call and goes to the sign-in page.
  await phone.page.goto('/account/home');
  await expect(phone.page).toHaveURL(/\/signin$/);
  expect(await stillSignedIn(laptop.context)).toBe(200);

  // A third browser signs in; staff end its session from the back office's user page.
  const tablet = await signedInBrowser(browser, customer.email, IPAD);
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInAs(admin, ADMIN, '/admin/login');
  await expect(admin).toHaveURL(/\/admin\/dashboard$/);
  await admin.goto(`/admin/users/${customer.id}`);
  const staffList = admin.getByRole('list', { name: 'Sessions' });
  await expect(staffList.getByRole('listitem')).toHaveCount(3);
  await checkA11y(admin);
  await staffList
    .getByRole('listitem')
    .filter({ hasText: 'Safari on iPad' })
    .getByRole('button', { name: /^End session/ })
    .click();
  await expect(admin.getByText('Session ended').first()).toBeVisible();
  await expect(staffList.getByRole('listitem')).toHaveCount(2);
  // Here too focus stays with the sessions, not the page: on the End session button of the row that
  // took the ended one's place.
  await expect(staffList.getByRole('button', { name: /^End session/ }).and(admin.locator(':focus'))).toHaveCount(1);
  expect(await stillSignedIn(tablet.context)).toBe(401);
  expect(await stillSignedIn(laptop.context)).toBe(200);

  // "Sign out everywhere else": only the laptop is left.
  const desktop = await signedInBrowser(browser, customer.email, WINDOWS_FIREFOX);
  await laptop.page.reload();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await laptop.page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(laptop.page.getByText('Signed out everywhere else').first()).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(laptop.page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  await expect(sessionsHeading).toBeFocused();
  expect(await stillSignedIn(desktop.context)).toBe(401);
  expect(await stillSignedIn(laptop.context)).toBe(200);

  for (const context of [laptop.context, phone.context, tablet.context, desktop.context, staff]) await context.close();
});

test('a minute before the idle timeout the app asks "Are you still there?", and "Stay signed in" keeps the session', async ({ page, request, checkA11y }) => {
  const customer = await newCustomer(request, page, { firstName: 'Sasha', lastName: 'Devices', prefix: 'sessions' });
  await page.clock.install();
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(dialog).toBeHidden();
  // The dashboard's own calls answer first: each answer renews the session and moves the deadline,
  // so one arriving late (a loaded machine) would rightly close the warning again.
  await page.waitForLoadState('networkidle');

  // Nothing happens for 14 minutes (of the page's clock): the warning opens, its button focused.
  await page.clock.fastForward('14:05');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('signed out in about a minute');
  await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await checkA11y();

  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/account\/home$/);
});
