import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export const DEMO_CUSTOMER = { email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' };
export const DEMO_CUSTOMER_2 = { email: 'jamie.lee@example.com', password: 'Ledgerline-Demo-2026' };
export const ADMIN = { email: 'admin@example.com', password: 'Ledgerline-Admin-2026' };

/**
 * Every test fails on a console error or a failed request, and gets `checkA11y(page)` to run axe
 * (WCAG 2.x A/AA) on the page as it is.
 */
export const test = base.extend<{ consoleErrors: string[]; checkA11y: (page?: Page) => Promise<void> }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // A 401/4xx answer the page handles is not an error of the page.
        if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
          errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      page.on('requestfailed', (request) => {
        const failure = request.failure()?.errorText ?? '';
        if (!failure.includes('ERR_ABORTED')) errors.push(`request failed: ${request.url()} ${failure}`);
      });
      await use(errors);
      expect(errors, 'console errors and failed requests').toEqual([]);
    },
    { auto: true },
  ],
  checkA11y: async ({ page }, use) => {
    await use(async (target?: Page) => {
      // A toast still fading in has its text at partial opacity: axe would measure the contrast
      // of a frame no one reads. Wait for finite animations and transitions to end first.
      await (target ?? page).waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
      );
      const results = await new AxeBuilder({ page: target ?? page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const summary = results.violations.map(
        (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
      );
      expect(summary, `axe violations on ${(target ?? page).url()}`).toEqual([]);
    });
  },
});

export { expect };

/**
 * For journeys that move the demo customers' money or assert their whole balances (ledger
 * journeys, history search, payment requests): they take one lock per bank under test, so two
 * workers never interleave them and a balance read before a payment is still true after it. A
 * lock older than five minutes was left by a worker that died, and is taken over.
 */
export const demoMoneyTest = test.extend<{ demoMoney: void }>({
  demoMoney: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function destructures
    async ({}, use, testInfo) => {
      const lock = path.join(os.tmpdir(), `ledgerline-e2e-demo-money-${new URL(testInfo.project.use.baseURL ?? 'http://x').port}.lock`);
      for (;;) {
        try {
          fs.mkdirSync(lock);
          break;
        } catch {
          const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
          if (age > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
          else await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      try {
        await use();
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    },
    { auto: true },
  ],
});

/** Presses Tab until `target` has the focus (and is visible), as a keyboard user would reach it. */
export async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      await expect(target).toBeVisible();
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${target} with Tab`);
}

/** Waits until React has taken over a prerendered page (src/web/root.tsx marks it), so typed text reaches React's state. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/**
 * The Origin a browser sends with a state-changing call from the bank's own page. A test that
 * calls the API with a context's session cookie (page.request, or a request fixture that signed in)
 * sends it too: the server refuses such a call without it (CSRF).
 */
export const fromOurPages = (): { origin: string } => ({ origin: new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1').origin });

export async function signInAs(page: Page, user: { email: string; password: string }, path = '/signin'): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
}

/** The newest 6-digit code mailed to `to`, read from the development outbox. */
export async function mailedCode(page: Page, to: string, after = 0): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await page.request.get('/dev/mailbox?format=json');
    const { data } = (await response.json()) as { data: Array<OutboxEntry & { id: number }> };
    const message = data.find((entry) => entry.to === to && entry.id > after && /\b\d{6}\b/.test(entry.text));
    const code = message?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await page.waitForTimeout(200);
  }
  throw new Error(`no code mailed to ${to}`);
}

/** The newest mail to `to` whose text matches, read from the development mailbox (mail leaves through a job: poll). */
export async function mailedText(page: Page, to: string, pattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await page.request.get('/dev/mailbox?format=json');
    const { data } = (await response.json()) as { data: OutboxEntry[] };
    const message = data.find((entry) => entry.to === to && pattern.test(entry.text));
    if (message) return message.text;
    await page.waitForTimeout(200);
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

export async function lastMailId(page: Page): Promise<number> {
  const response = await page.request.get('/dev/mailbox?format=json');
  const { data } = (await response.json()) as { data: Array<{ id: number }> };
  return data[0]?.id ?? 0;
}

export const uniqueEmail = (prefix = 'e2e') => `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
