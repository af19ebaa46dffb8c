import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  request as requests,
  type APIRequestContext,
  type APIResponse,
  type CDPSession,
  type Cookie,
  type Locator,
  type Page,
} from '@playwright/test';
import { TOTP_REPLAYED_MESSAGE } from '../../src/shared/contracts/factors';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../src/shared/staff-roles';
import { msUntilStep, STAFF_TOTP_SECRET, staffCode, totpStepAt } from '../../tests/support/totp';

export const DEMO_CUSTOMER = { email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' };
export const DEMO_CUSTOMER_2 = { email: 'jamie.lee@example.com', password: 'Ledgerline-Demo-2026' };
/** The first admin: its authenticator app holds the test staff secret (ADMIN_TOTP_SECRET of the suite's server). */
export const ADMIN = { email: 'admin@example.com', password: 'Ledgerline-Admin-2026', totpSecret: STAFF_TOTP_SECRET };
/** The second staff member demo mode seeds (DEMO_SECOND_ADMIN_EMAIL): the first admin's password and authenticator secret (ADR 023). */
export const ADMIN2 = { email: 'admin2@example.com', password: ADMIN.password, totpSecret: STAFF_TOTP_SECRET };

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
      const on = target ?? page;
      // The page as a person reads it: not the moment's "Loading..." before a client-rendered page
      // has its data (no heading yet: axe's best practices want one).
      await expect(on.locator('[data-hydrate-fallback]')).toHaveCount(0, { timeout: 10_000 });
      // A toast still fading in has its text at partial opacity: axe would measure the contrast
      // of a frame no one reads. Wait for finite animations and transitions to end first.
      const settled = () =>
        on.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
        );
      // The page can still change under axe, which takes a while: a button pressed earlier comes
      // back once its refetch is in, easing its colour from the disabled grey. Transitions that
      // start from just before a run to its end are counted; a run that saw one is measured again
      // on the settled page (whatever it found: a frame can hide a violation as well as show one).
      const countTransitions = () =>
        on.evaluate(() => {
          const counted = window as unknown as { llTransitions?: number };
          if (counted.llTransitions === undefined) document.addEventListener('transitionrun', () => (counted.llTransitions! += 1), true);
          counted.llTransitions = 0;
        });
      let summary: string[] = [];
      for (let run = 0; run < 3; run += 1) {
        await countTransitions();
        await settled();
        // WCAG 2.1 A and AA, and axe's best practices (landmarks, one main, heading order...).
        const results = await new AxeBuilder({ page: on }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        summary = results.violations.map(
          (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
        );
        const changed = await on.evaluate(() => (window as unknown as { llTransitions: number }).llTransitions > 0);
        if (!changed) break;
      }
      expect(summary, `axe violations on ${on.url()}`).toEqual([]);
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

/**
 * Looks at the page at the width it has now: no sideways scroll, axe clean, and a screenshot
 * named after `name` and the width.
 */
export async function lookAt(page: Page, name: string, checkA11y: (page?: Page) => Promise<void>): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  await checkA11y(page);
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
}

/**
 * Looks at the page as a phone and a laptop show it (`lookAt` at 375 and 1280 px); the page is
 * left at 1280 px.
 */
export async function lookAtBothWidths(page: Page, name: string, checkA11y: (page?: Page) => Promise<void>): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await lookAt(page, name, checkA11y);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A bar chart (an SVG image) reads at the width it is shown: every label at least 12 px tall on
 * screen (a chart scaled down from a fixed drawing gave about 5 px at 375 px), inside the chart,
 * and the labels along the bottom (those `bottom` matches, at least two) apart from each other.
 */
export async function expectLegibleChart(chart: Locator, bottom: RegExp): Promise<void> {
  const width = chart.page().viewportSize()?.width ?? 0;
  const labels = chart.locator('text');
  await expect(labels.first()).toBeVisible();
  // The chart redraws at its new width once its ResizeObserver has seen it (a frame or two after a
  // viewport change): until then it shows the old drawing scaled. Every check holds once it has.
  await expect(async () => {
    const boxes = await labels.evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { text: element.textContent ?? '', left: box.left, right: box.right, height: box.height };
      }),
    );
    const svg = (await chart.boundingBox())!;
    for (const box of boxes) {
      expect(box.height, `"${box.text}" at ${width} px`).toBeGreaterThanOrEqual(12);
      expect(box.left, `"${box.text}" inside the chart at ${width} px`).toBeGreaterThanOrEqual(svg.x - 1);
      expect(box.right, `"${box.text}" inside the chart at ${width} px`).toBeLessThanOrEqual(svg.x + svg.width + 1);
    }
    const along = boxes.filter((box) => bottom.test(box.text)).sort((a, b) => a.left - b.left);
    expect(along.length, `labels along the bottom at ${width} px`).toBeGreaterThanOrEqual(2);
    for (let index = 1; index < along.length; index += 1)
      expect(along[index]!.left, `labels along the bottom apart at ${width} px`).toBeGreaterThan(along[index - 1]!.right);
  }).toPass({ timeout: 5_000 });
}

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

/** Chromium's virtual platform authenticator (a passkey store with user verification) for this page, through the DevTools WebAuthn domain. */
export async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
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
export const fromOurPages = (): { origin: string } => ({ origin: new URL(test.info().project.use.baseURL ?? 'http://localhost').origin });

/**
 * The 30-second step whose code a staff sign-in types next. A code is accepted once (per user, a
 * step no later than the newest accepted one is refused), and the suite's workers sign the same
 * admin in: each worker reserves the next step nobody has reserved by creating a file named after
 * it (only one creation can succeed), then waits, as a person would, until the server takes that
 * step's code (from the step before it: the server's window reaches one step ahead). First come,
 * first served: no worker waits for ever behind the others. The test's time limit grows by the
 * wait. The server's rule is not relaxed.
 */
export async function claimStaffStep(): Promise<number> {
  const directory = path.join(os.tmpdir(), `ledgerline-e2e-${new URL(test.info().project.use.baseURL ?? 'http://localhost:3100').port}-staff-steps`);
  fs.mkdirSync(directory, { recursive: true });
  for (;;) {
    const now = new Date();
    const current = totpStepAt(now);
    const newest = Math.max(0, ...fs.readdirSync(directory).map(Number).filter(Number.isFinite));
    const step = Math.max(current, newest + 1);
    try {
      fs.writeFileSync(path.join(directory, String(step)), String(process.pid), { flag: 'wx' });
    } catch {
      continue; // Another worker took it a moment ago: the next one.
    }
    const waitMs = step > current + 1 ? msUntilStep(step - 1, now) + 100 : 0;
    if (waitMs > 0) {
      test.info().setTimeout(test.info().timeout + waitMs);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    return step;
  }
}

/**
 * Staff sessions this worker has signed in, by email: the cookies of the session (each worker is
 * a process of its own). A code works once, so at most one staff sign-in per 30 seconds can succeed
 * for the whole suite; journeys about the back office reuse the worker's session while the server
 * still accepts it, and sign in through the form only when there is none (the sign-in itself is the
 * journey of identity.spec.ts and staff-sign-in.spec.ts, which ask for the form).
 */
const staffSessions = new Map<string, Cookie[]>();

async function reuseStaffSession(page: Page, email: string): Promise<boolean> {
  const cookies = staffSessions.get(email);
  if (!cookies) return false;
  await page.context().addCookies(cookies);
  const check = await page.request.get('/api/auth/user');
  if (check.status() === 200 && ((await check.json()) as { data: { email: string } }).data.email === email) return true;
  staffSessions.delete(email);
  await page.context().clearCookies();
  return false;
}

/**
 * The sign-in page as a user fills it in. A staff member (a user with `totpSecret`) then gets the
 * second step and types the code their authenticator app shows (a claimed step: see claimStaffStep);
 * a staff member this worker has already signed in goes straight to the back office's dashboard
 * with that session (see staffSessions) unless `form` asks for the sign-in page.
 */
export async function signInAs(
  page: Page,
  user: { email: string; password: string; totpSecret?: string },
  path = '/signin',
  { form = false }: { form?: boolean } = {},
): Promise<void> {
  if (user.totpSecret && !form && (await reuseStaffSession(page, user.email))) {
    await page.goto('/admin/dashboard');
    await waitForHydration(page);
    return;
  }
  await page.goto(path);
  await waitForHydration(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  if (user.totpSecret) {
    await enterAuthenticatorCode(page, user.totpSecret);
    await expect(page).toHaveURL(/\/admin\/(dashboard|security)$/);
    staffSessions.set(user.email, await page.context().cookies(page.url()));
  }
}

/** The second step with a code from the authenticator app (a code refused as used: the next step's). */
export async function enterAuthenticatorCode(page: Page, secret: string): Promise<void> {
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  const field = page.getByLabel('Authenticator code');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await field.fill(staffCode(await claimStaffStep(), secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    const refused = page.getByRole('alert').filter({ hasText: TOTP_REPLAYED_MESSAGE });
    const outcome = await Promise.race([
      field.waitFor({ state: 'detached', timeout: 20_000 }).then(() => 'signed in' as const),
      refused.waitFor({ timeout: 20_000 }).then(() => 'replayed' as const),
    ]);
    if (outcome === 'signed in') return;
  }
  throw new Error('every authenticator code was refused as already used');
}

/**
 * A staff sign-in through the API with the page's cookies, as the back office's page makes it:
 * password (a ticket comes back), then a code; or the worker's staff session (see staffSessions).
 * Answers the signed-in user.
 */
export async function staffSignInByApi(page: Page, user: { email: string; password: string; totpSecret: string } = ADMIN): Promise<{ _id: string }> {
  if (await reuseStaffSession(page, user.email)) return ((await (await page.request.get('/api/auth/user')).json()) as { data: { _id: string } }).data;
  const first = await page.request.post('/api/auth/admin/signin', { headers: fromOurPages(), data: { email: user.email, password: user.password } });
  expect(first.status()).toBe(200);
  const { ticket } = (await first.json()).data.secondFactor as { ticket: string };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const second = await page.request.post('/api/auth/admin/signin/totp', {
      headers: fromOurPages(),
      data: { ticket, code: staffCode(await claimStaffStep(), user.totpSecret) },
    });
    const body = await second.json();
    if (second.status() === 200) {
      staffSessions.set(user.email, await page.context().cookies(new URL(test.info().project.use.baseURL ?? 'http://localhost').origin));
      return body.data.user;
    }
    expect(body.message, 'a staff code refused for another reason than reuse').toContain(TOTP_REPLAYED_MESSAGE);
  }
  throw new Error('every authenticator code was refused as already used');
}

/** Staff bearer tokens this worker has signed in (see staffSessions: one staff code per 30 s). */
const staffTokens = new Map<string, string>();

/**
 * A staff session's token for `Authorization: Bearer`, signed in through the API with a request
 * context (password, then a code: see claimStaffStep); the worker's token while it still works.
 */
export async function staffBearerToken(request: APIRequestContext, user: { email: string; password: string; totpSecret: string } = ADMIN): Promise<string> {
  const cached = staffTokens.get(user.email);
  if (cached && (await request.get('/api/auth/user', { headers: { authorization: `Bearer ${cached}` } })).status() === 200) return cached;
  const first = await request.post('/api/auth/admin/signin', { headers: fromOurPages(), data: { email: user.email, password: user.password } });
  expect(first.status()).toBe(200);
  const { ticket } = (await first.json()).data.secondFactor as { ticket: string };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const second = await request.post('/api/auth/admin/signin/totp', {
      headers: fromOurPages(),
      data: { ticket, code: staffCode(await claimStaffStep(), user.totpSecret) },
    });
    const body = await second.json();
    if (second.status() === 200) {
      staffTokens.set(user.email, body.data.token);
      return body.data.token as string;
    }
    expect(body.message, 'a staff code refused for another reason than reuse').toContain(TOTP_REPLAYED_MESSAGE);
  }
  throw new Error('every authenticator code was refused as already used');
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

/**
 * A transfer made through the API by the customer `page` is signed in as (`email`): the first call
 * emails an IMS code, the second carries it, as the transfer form's two steps do. Fails unless paid.
 */
export async function transferByApi(
  page: Page,
  email: string,
  body: { amount: number; accountType: 'savings' | 'checking'; accountNumber: string; to: string; description?: string },
): Promise<void> {
  const after = await lastMailId(page);
  const step = await page.request.post('/api/transaction/transfer', { headers: { ...fromOurPages(), 'idempotency-key': crypto.randomUUID() }, data: body });
  expect(step.status(), await step.text()).toBe(200);
  const paid = await page.request.post('/api/transaction/transfer', {
    headers: { ...fromOurPages(), 'idempotency-key': crypto.randomUUID() },
    data: { ...body, paymentPin: await mailedCode(page, email, after) },
  });
  expect(paid.status(), await paid.text()).toBe(201);
}

export const uniqueEmail = (prefix = 'e2e') => `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** The password of the customers `newCustomer` makes. */
export const CUSTOMER_PASSWORD = 'Quiet-Harbor-7719';

// ---------------------------------------------------------------- four eyes (ADR 023)

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- journeys read loosely typed JSON
type Loose = any;

/**
 * THE four-eyes helper of the journeys: the second staff member (ADMIN2) approves a pending
 * request, through the API in a request context of its own (so no page's session changes hands).
 * `which` is the approval's id, or a test of the pending requests (one made through a page's form).
 * Answers the approved change's outcome: the status and body the call would have answered at once.
 */
export async function approveAsSecondStaff(which: string | ((item: Loose) => boolean)): Promise<{ status: number; data: Loose; message?: string }> {
  const context = await requests.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const headers = { authorization: `Bearer ${await staffBearerToken(context, ADMIN2)}`, ...fromOurPages() };
    let id = which;
    if (typeof which !== 'string') {
      const pending = await context.get('/api/admin/approvals?status=pending&pageSize=100', { headers });
      expect(pending.status()).toBe(200);
      const found = ((await pending.json()).data.items as Loose[]).find(which);
      expect(found, 'the pending request to approve').toBeTruthy();
      id = found.id as string;
    }
    const approved = await context.post(`/api/admin/approvals/${id as string}/approve`, { headers });
    expect(approved.status(), await approved.text()).toBe(200);
    return (await approved.json()).data.outcome;
  } finally {
    await context.dispose();
  }
}

/** A staff call four eyes holds (a credit, a correction...), carried out: it answered 202 pending; the second staff member approves it. */
export async function approvedStaffCall(requested: APIResponse): Promise<{ status: number; data: Loose; message?: string }> {
  expect(requested.status(), await requested.text()).toBe(202);
  return approveAsSecondStaff((await requested.json()).data.approvalId as string);
}

/**
 * A new, verified customer with no money (a journey's own customer: the demo customers' balances
 * stay as they are), signed up through the API with `via`'s cookies: `page.request` leaves the page
 * signed in as them, the `request` fixture leaves the page as it was. The password is
 * CUSTOMER_PASSWORD; the last name is unique unless one is given. `token` is the session's bearer
 * token (for a call in a context that holds another session's cookies).
 */
export async function newCustomer(
  via: APIRequestContext,
  page: Page,
  options: { firstName?: string; lastName?: string; prefix?: string } = {},
): Promise<{ id: string; email: string; password: string; name: string; accountNumber: string; token: string }> {
  const { firstName = 'Quinn', lastName = `Checker${Math.random().toString(36).slice(2, 6)}` } = options;
  const email = uniqueEmail(options.prefix ?? firstName.toLowerCase());
  // `via` may hold another customer's session already: a call with its cookie needs the bank's Origin.
  const signUp = await via.post('/api/auth/signup', {
    headers: fromOurPages(),
    data: {
      firstName,
      lastName,
      email,
      address: '9 Birch Lane, Springfield',
      dateOfBirth: '1989-06-01',
      sex: 'Prefer not to say',
      countryCode: '1',
      phone: '+1 202 555 0147',
      occupation: 'private',
      annualIncomeRange: '$30,000.00 - $70,000.00',
      accountType: 'Checking',
      password: CUSTOMER_PASSWORD,
      confirmPassword: CUSTOMER_PASSWORD,
    },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);
  const signIn = await via.post('/api/auth/signin', { headers: fromOurPages(), data: { email, password: CUSTOMER_PASSWORD } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const { token } = ((await signIn.json()) as { data: { token: string } }).data;
  const verified = await via.post('/api/auth/verify-email', { headers: fromOurPages(), data: { otp: await mailedCode(page, email) } });
  expect(verified.status(), await verified.text()).toBe(200);
  const { data } = (await verified.json()) as { data: { _id: string; account: { number: string } } };
  return { id: data._id, email, password: CUSTOMER_PASSWORD, name: `${firstName} ${lastName}`, accountNumber: data.account.number, token };
}

// ---------------------------------------------------------------- staff roles (ADR 022)

export interface StaffCredentials {
  id: string;
  email: string;
  password: string;
  totpSecret: string;
  staffRole: StaffRole;
}

/** Staff members of a role this worker made, by role (each worker is a process of its own). */
const staffOfRoles = new Map<StaffRole, Omit<StaffCredentials, 'id'>>();
const STAFF_PASSWORD = 'Quiet-Lantern-Harbor-88';

/**
 * A staff member of `role`, made the way the bank makes one, through the API (the journeys' twin of
 * tests/support/app.ts's createStaff/adminToken({ role })): the admin invites them, the second admin
 * approves the invitation (four eyes, ADR 023), the mailed link sets a password, and the first
 * sign-in enrols an authenticator app whose secret is kept here. Made once per worker and role;
 * `admin` is the first admin. Sign in with `signInAsStaff(page, role)`.
 */
export async function staffOfRole(role: StaffRole): Promise<Omit<StaffCredentials, 'id'>> {
  if (role === 'admin') return { ...ADMIN, staffRole: 'admin' };
  const known = staffOfRoles.get(role);
  if (known) return known;
  const made = await newStaffMember(role);
  staffOfRoles.set(role, made);
  return made;
}

/**
 * A new staff member of `role` (an admin too), made as staffOfRole makes one, for a journey that
 * changes them (a role change about them): never the worker's shared one.
 */
export async function newStaffMember(role: StaffRole, name = `${STAFF_ROLE_LABELS[role]} Tester`): Promise<StaffCredentials & { name: string }> {
  const context = await requests.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const email = uniqueEmail(`e2e-${role}`);
    const admin = { authorization: `Bearer ${await staffBearerToken(context, ADMIN)}`, ...fromOurPages() };
    const invited = await context.post('/api/admin/staff', { headers: admin, data: { name, email, staffRole: role } });
    const outcome = await approvedStaffCall(invited);
    expect(outcome.status).toBe(201);
    const id = (outcome.data as { _id: string })._id;
    let token: string | undefined;
    for (let attempt = 0; attempt < 50 && !token; attempt += 1) {
      const { data } = (await (await context.get('/dev/mailbox?format=json')).json()) as { data: OutboxEntry[] };
      token = data.find((entry) => entry.to === email)?.text.match(/\/admin\/invitation\?token=([A-Za-z0-9_-]+)/)?.[1];
      if (!token) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(token, `the invitation mailed to ${email}`).toBeTruthy();
    const accepted = await context.post('/api/auth/admin/invitation', {
      headers: fromOurPages(),
      data: { token, password: STAFF_PASSWORD, confirmPassword: STAFF_PASSWORD },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    // The first sign-in may only enrol a second factor (ADR 011): an authenticator app, whose secret the journeys keep.
    const first = await context.post('/api/auth/admin/signin', { headers: fromOurPages(), data: { email, password: STAFF_PASSWORD } });
    expect(first.status(), await first.text()).toBe(200);
    const enrolOnly = { authorization: `Bearer ${(await first.json()).data.token as string}`, ...fromOurPages() };
    const enrol = await context.post('/api/auth/totp/enrol', { headers: enrolOnly });
    expect(enrol.status(), await enrol.text()).toBe(200);
    const totpSecret = (await enrol.json()).data.secret as string;
    const confirmed = await context.post('/api/auth/totp/confirm', { headers: enrolOnly, data: { code: staffCode(await claimStaffStep(), totpSecret) } });
    expect(confirmed.status(), await confirmed.text()).toBe(201);
    return { id, name, email, password: STAFF_PASSWORD, totpSecret, staffRole: role };
  } finally {
    await context.dispose();
  }
}

/** The staff login as a staff member of `role` fills it in (password, then the app's code): the back office's dashboard. */
export async function signInAsStaff(page: Page, role: StaffRole): Promise<Omit<StaffCredentials, 'id'>> {
  const staff = await staffOfRole(role);
  await signInAs(page, staff, '/admin/login');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  return staff;
}
