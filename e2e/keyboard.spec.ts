import type { Page } from '@playwright/test';
import { DEMO_CUSTOMER_2, expect, tabTo, test } from './support/fixtures';

// A customer who uses only the keyboard: every step is reached with Tab and used with Enter,
// Space or typing, and the focused element is always visible.

test('sign in, open the menu and move money between own accounts with the keyboard only', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await tabTo(page, page.getByRole('link', { name: 'Login Account' }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/signin$/);

  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(DEMO_CUSTOMER_2.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(DEMO_CUSTOMER_2.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/home$/);

  await tabTo(page, page.getByRole('link', { name: /Inter Account/ }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/internal_transfer$/);
  const amount = page.getByLabel(/Amount/);
  await tabTo(page, amount);
  await page.keyboard.type('1.25');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account\/transactions$/);
  await expect(page.getByTestId('transaction-line').first()).toContainText('1.25');
});

test('the header menus open with Enter and close with Escape', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const personal = page.getByRole('button', { name: 'Personal' });
  await tabTo(page, personal);
  await page.keyboard.press('Enter');
  await expect(personal).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Personal Checking' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(personal).toHaveAttribute('aria-expanded', 'false');
  await expect(personal).toBeFocused();
});

/** Holds back the module that starts hydration until the returned function is called. */
async function holdHydration(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a sign-in sent before the page has come alive is sent once it has, never posted natively', async ({ page }) => {
  // As above: the module that starts hydration is held back, so Enter in the password field lands
  // before React has the form. The loader keeps the submit (a native post would come back as an
  // empty page with the password lost) and sends it again once React has taken over.
  const release = await holdHydration(page);
  const natively: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.isNavigationRequest()) natively.push(request.url());
  });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/signin');
  await page.getByLabel('Email').fill(DEMO_CUSTOMER_2.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_CUSTOMER_2.password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
  await expect(page).toHaveURL(/\/signin$/);
  release();
  await expect(page).toHaveURL(/\/account\/home$/);
  expect(natively).toEqual([]);
});

test('a menu pressed before the page has come alive opens once it has', async ({ page }) => {
  // Holds back the module that starts hydration, so the Enter below certainly lands before React
  // has the page: the loader keeps the press and makes it again once React has taken over.
  const release = await holdHydration(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const personal = page.getByRole('button', { name: 'Personal' });
  await tabTo(page, personal);
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
  await expect(personal).toHaveAttribute('aria-expanded', 'false');
  release();
  await expect(personal).toHaveAttribute('aria-expanded', 'true');
  await expect(personal).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Personal Checking' })).toBeFocused();
});
