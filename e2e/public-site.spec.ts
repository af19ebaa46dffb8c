import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

// Every public route with the heading it must show (written out here, not read from the content
// module, so a page that loses its heading or shows the wrong one fails).
const routes: Array<[string, string | RegExp]> = [
  ['/', /^Welcome to /],
  ['/contact', 'Contact Us'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-and-conditions', 'Privacy Policy'],
  ['/ways-to-bank', 'Ways to Bank'],
  ['/about-us', 'About Us'],
  ['/about', 'About Us'],
  ['/business-banking', 'Business Banking'],
  ['/business-savings', 'Business Savings'],
  ['/business-checking', 'Business Checking'],
  ['/business-loans', 'Business Loans'],
  ['/commercial-real-estate', 'Commercial Real Estate'],
  ['/resources/personal-checking', 'Personal Checking'],
  ['/resources/savings', 'Savings Accounts'],
  ['/resources/investment-solutions', 'Investment Solutions'],
  ['/resources/loans', 'Personal Loans'],
  ['/resources/auto-loan', 'Auto Loans'],
  ['/resources/home-equity-line', 'Home Equity Line of Credit'],
  ['/resources/digital-assets', 'Digital Assets'],
  ['/resources/retirement-spouse-program', 'Retirement Spouse Program'],
  ['/resources/pamm-mam', 'PAMM and MAM Managed Accounts'],
  ['/resources/cannabis-investments', 'Cannabis Investments'],
  ['/verify-statement', 'Verify a statement'],
];

const investmentPages = [
  '/resources/investment-solutions',
  '/resources/digital-assets',
  '/resources/retirement-spouse-program',
  '/resources/pamm-mam',
  '/resources/cannabis-investments',
];

/** Fails the test on any request to another host (no web fonts, images or scripts from elsewhere). */
function onlyOwnHost(page: Page, foreign: string[]) {
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') foreign.push(request.url());
  });
}

const internalLinks = (page: Page) =>
  page.$$eval('a[href]', (anchors) =>
    anchors
      .map((anchor) => new URL((anchor as HTMLAnchorElement).href))
      .filter((url) => url.origin === window.location.origin)
      .map((url) => url.pathname),
  );

for (const width of [375, 1280]) {
  test.describe(`public pages at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const [path, heading] of routes) {
      test(`${path}`, async ({ page, checkA11y }) => {
        const foreign: string[] = [];
        onlyOwnHost(page, foreign);
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        // Prerendered: the heading is in the HTML before any script runs.
        expect(await response?.text()).toContain('<h1');
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
        // Every marketing page has a call to action to /signin in its hero.
        expect(await page.locator('main a[href="/signin"]').count()).toBeGreaterThan(0);
        if (investmentPages.includes(path))
          await expect(page.getByRole('complementary', { name: 'Investment risk: please read' })).toContainText('may lose value');
        // No horizontal scrolling on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await checkA11y();
        expect(foreign).toEqual([]);
      });
    }
  });
}

test('every internal link on the public site leads to a real page', async ({ page }) => {
  test.setTimeout(180_000);
  const targets = new Set<string>();
  for (const [path] of routes) {
    await page.goto(path);
    for (const link of await internalLinks(page)) targets.add(link);
  }
  // Links the spec names must be among them.
  expect(
    ['/signin', '/signup', '/contact', '/ways-to-bank', '/about-us', '/privacy-policy', '/terms-and-conditions'].filter((path) => !targets.has(path)),
  ).toEqual([]);
  const broken: string[] = [];
  for (const target of [...targets].sort()) {
    if (target.startsWith('/api/')) {
      // A document the site links to (the statements' public keys): it must answer, it has no heading.
      const response = await page.request.get(target);
      if (!response.ok()) broken.push(`${target} (${response.status()})`);
      continue;
    }
    const response = await page.goto(target);
    await page.waitForLoadState('networkidle');
    const headings = await page.getByRole('heading', { level: 1 }).allInnerTexts();
    if (!response?.ok() || headings.length === 0 || headings.some((text) => text.trim() === 'Not Found'))
      broken.push(`${target} (${response?.status()}: ${headings.join(' | ')})`);
  }
  expect(broken).toEqual([]);
  // Every public route is linked from somewhere on the site, plus sign-in and sign-up.
  expect(routes.map(([path]) => path).filter((path) => !targets.has(path))).toEqual([]);
});

test('an unknown path shows Not Found', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not Found');
});

test.describe('navigation', () => {
  test('desktop dropdowns open with the keyboard and lead to their pages', async ({ page, checkA11y }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const main = page.getByRole('navigation', { name: 'Main' });
    for (const menu of ['Personal', 'Business', 'Resources']) {
      const button = main.getByRole('button', { name: menu });
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await checkA11y();
      await page.keyboard.press('Escape');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
    }
    // Escape from a link inside a menu closes it and returns focus to its button; Tab out closes it.
    const resources = main.getByRole('button', { name: 'Resources' });
    await resources.click();
    await main.getByRole('link', { name: 'Digital Assets' }).focus();
    await page.keyboard.press('Escape');
    await expect(resources).toHaveAttribute('aria-expanded', 'false');
    await expect(resources).toBeFocused();
    const personal = main.getByRole('button', { name: 'Personal' });
    await personal.click();
    await main.getByRole('link', { name: 'Home Equity Line' }).focus();
    await page.keyboard.press('Tab');
    await expect(personal).toHaveAttribute('aria-expanded', 'false');
    await main.getByRole('button', { name: 'Business' }).click();
    await main.getByRole('link', { name: 'Business Checking' }).click();
    await expect(page).toHaveURL(/\/business-checking$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Business Checking');
    await expect(main.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/signup');
    await expect(main.getByRole('link', { name: 'Login Account' })).toHaveAttribute('href', '/signin');
  });

  test('the mobile menu offers Open Account and Activate Account', async ({ page, checkA11y }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/about-us');
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByRole('link', { name: 'Open Account' })).toHaveAttribute('href', '/signin');
    await expect(menu.getByRole('link', { name: 'Activate Account' })).toHaveAttribute('href', '/signup');
    await checkA11y();
    // Escape closes it and leaves focus on the button that opened it, from the button or from a link in it.
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Open Account' }).focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Savings', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Savings Accounts');
    await expect(menu).toBeHidden();
  });

  test('the footer carries the spec links and the disclaimers', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Contact', 'Ways to Bank', 'Loans', 'Investment Solutions', 'Bank Accounts', 'About Us', 'Online Banking Login'])
      await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(footer).toContainText('not FDIC insured');
    await expect(footer).toContainText('subject to credit approval');
    await expect(footer).toContainText('Rates (APY) are variable');
  });

  test('public pages are readable with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/resources/savings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Savings Accounts');
    await expect(page.getByText('3.00% APY').first()).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'How Can we help you today?' })).toBeVisible();
    // A sign-in sent before the scripts run comes back to the form and never puts the password in the address.
    await page.goto('/signin');
    await page.getByLabel('Email').fill('early@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Not-In-The-Url-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
    expect(page.url()).not.toContain('Not-In-The-Url');
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  });
});
