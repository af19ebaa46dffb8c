/**
 * npm run bench:security-a11y: Lighthouse 12's accessibility category (Debian's Chromium,
 * `--headless=new`) on issue 13's signed-in pages and states, which `bench:web` (public pages,
 * by URL) cannot reach: /account/security, the authenticator app's enrolment (QR code and key),
 * its recovery codes, a passkey registered (Chromium's virtual authenticator), the form that
 * removes a factor with a fresh one, and the sign-in's second step. A navigation audit for the
 * page, a snapshot audit (Lighthouse's user-flow API through puppeteer-core) for each state.
 *
 * Starts the built app (run `npm run build` first) on a free port with a throwaway data directory
 * and signs a new customer up through the API. Prints one row per state; exits 1 below 1.0.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { navigation, snapshot } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { totpCodeForStep, totpStepAt } from '../src/server/factors/totp';
import { freePort, startBank, stopBank, waitForHealth } from './bank';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const PASSWORD = 'Quiet-Harbor-Lantern-58';
/** The width audited: 375 (a phone, the default) or BENCH_WIDTH=1280 (a laptop). */
const WIDTH = Number(process.env.BENCH_WIDTH ?? 375);
const MOBILE = WIDTH < 768;
const FLAGS = {
  onlyCategories: ['accessibility'],
  logLevel: 'error' as const,
  formFactor: MOBILE ? ('mobile' as const) : ('desktop' as const),
  screenEmulation: { mobile: MOBILE, width: WIDTH, height: 800, deviceScaleFactor: MOBILE ? 2 : 1 },
};

async function mailedCode(base: string, to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const { data } = (await (await fetch(`${base}/dev/mailbox?format=json`)).json()) as { data: Array<{ to: string; text: string }> };
    const code = data.find((mail) => mail.to === to && /\b\d{6}\b/.test(mail.text))?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code mailed to ${to}`);
}

/** A verified customer, made through the API as the sign-up page would. */
async function newCustomer(base: string): Promise<string> {
  const email = `a11y.${Date.now()}@example.com`;
  const headers = { 'content-type': 'application/json', origin: base };
  const body = {
    firstName: 'Avery',
    lastName: 'Audit',
    email,
    address: '1 Audit Way, Springfield',
    dateOfBirth: '1990-01-01',
    sex: 'Other',
    countryCode: '1',
    phone: '+1 202 555 0111',
    occupation: 'private',
    annualIncomeRange: '$30,000.00 - $70,000.00',
    accountType: 'Checking',
    password: PASSWORD,
    confirmPassword: PASSWORD,
  };
  if ((await fetch(`${base}/api/auth/signup`, { method: 'POST', headers, body: JSON.stringify(body) })).status !== 201) throw new Error('sign-up failed');
  const signIn = (await (await fetch(`${base}/api/auth/signin`, { method: 'POST', headers, body: JSON.stringify({ email, password: PASSWORD }) })).json()) as {
    data: { token: string };
  };
  const verify = await fetch(`${base}/api/auth/verify-email`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${signIn.data.token}` },
    body: JSON.stringify({ otp: await mailedCode(base, email) }),
  });
  if (verify.status !== 200) throw new Error('verification failed');
  return email;
}

/** The demo customers (demo mode seeds them with the README's password). */
const DEMO_PAYER_EMAIL = 'alex.morgan@example.com';
const DEMO_PAYEE_EMAIL = 'jamie.lee@example.com';
const DEMO_PASSWORD = 'Ledgerline-Demo-2026';

/** A demo customer's account number, read through the API as they would see it. */
async function demoAccountNumber(base: string, email: string): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: base };
  const signIn = (await (
    await fetch(`${base}/api/auth/signin`, { method: 'POST', headers, body: JSON.stringify({ email, password: DEMO_PASSWORD }) })
  ).json()) as {
    data: { token: string };
  };
  const me = (await (await fetch(`${base}/api/user/me`, { headers: { authorization: `Bearer ${signIn.data.token}` } })).json()) as {
    data: { account: { number: string } };
  };
  return me.data.account.number;
}

const rows: Array<{ state: string; score: number; failing: string[] }> = [];

function record(state: string, result: Awaited<ReturnType<typeof snapshot>>): void {
  const lhr = result?.lhr;
  const score = lhr?.categories.accessibility?.score ?? 0;
  const failing = Object.values(lhr?.audits ?? {})
    .filter((audit) => audit.score === 0 && audit.scoreDisplayMode === 'binary')
    .map((audit) => audit.id);
  rows.push({ state, score, failing });
}

async function signInForm(page: Page, base: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/signin`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.locator('::-p-aria(Email)').fill(email);
  await page.locator('::-p-aria(Password[role="textbox"]), input[type="password"]').fill(password);
  await page.locator('::-p-aria(Login)').click();
}

/**
 * Registers a passkey from the security page with a fresh virtual authenticator: Lighthouse's own
 * sessions on the page reset the WebAuthn domain, so one made before a snapshot is gone after it.
 */
async function addPasskey(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/account/security`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('html[data-hydrated="true"]');
  const cdp = await page.createCDPSession();
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.locator('::-p-aria(Add a passkey)').click();
  await page.waitForFunction(() => document.querySelector('ul[aria-label="Your passkeys"]') !== null);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.resolve('build/client/index.html'))) throw new Error('No web build: run "npm run build" first.');
  const port = Number(process.env.PORT ?? (await freePort()));
  const base = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-a11y-'));
  const app = startBank({ PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: base, NODE_ENV: 'test', RATE_LIMITS: 'false' });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForHealth(base, app);
    const email = await newCustomer(base);
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const page = await browser.newPage();
    await page.setViewport({ width: WIDTH, height: 800 });
    await signInForm(page, base, email);
    await page.waitForFunction(() => location.pathname === '/account/home');
    record('/account/security (navigation)', await navigation(page, `${base}/account/security`, { flags: FLAGS }));

    await page.goto(`${base}/account/security`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.locator('::-p-aria(Set up an authenticator app)').click();
    await page.waitForSelector('[data-testid="totp-secret"]');
    await page.waitForSelector('img[alt^="QR code"]');
    record('TOTP enrolment (QR code and key)', await snapshot(page, { flags: FLAGS }));

    const secret = (await page.$eval('[data-testid="totp-secret"]', (element) => element.textContent ?? '')).replaceAll(' ', '');
    const usedStep = totpStepAt(new Date());
    await page.locator('::-p-aria(Code from the app)').fill(totpCodeForStep(secret, usedStep));
    await page.locator('::-p-aria(Turn on)').click();
    await page.waitForFunction(() => document.body.innerText.includes('recovery codes'));
    record('TOTP recovery codes (shown once)', await snapshot(page, { flags: FLAGS }));

    await addPasskey(page, base);
    record('Passkey registered (list, rename, remove)', await snapshot(page, { flags: FLAGS }));

    await page.locator('::-p-aria(Remove authenticator app)').click();
    await page.waitForFunction(() => document.body.innerText.includes('Confirm it'));
    record('Remove a factor: fresh factor asked', await snapshot(page, { flags: FLAGS }));

    // Sign out, then the second step of the sign-in.
    await page.evaluate(async (origin) => {
      await fetch('/api/auth/signout', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
    }, base);
    await signInForm(page, base, email);
    await page.waitForFunction(() => document.body.innerText.includes("Confirm it's you"));
    record('Sign-in second step', await snapshot(page, { flags: FLAGS }));

    // A transfer approved with a passkey (ADR 024): the demo customer, who has money, adds a passkey
    // and pays the other demo customer; the approval step shows what the passkey will authorize.
    const payee = await demoAccountNumber(base, DEMO_PAYEE_EMAIL);
    await page.deleteCookie(...(await page.cookies()));
    await signInForm(page, base, DEMO_PAYER_EMAIL, DEMO_PASSWORD);
    await page.waitForFunction(() => location.pathname === '/account/home');
    await addPasskey(page, base);
    await page.goto(`${base}/account/transfer`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('html[data-hydrated="true"]');
    await page.select('select[name="accountType"]', 'checking');
    await page.locator('::-p-aria(Amount (USD))').fill('25');
    await page.locator('::-p-aria(Recipient name)').fill('Jamie Lee');
    await page.locator('::-p-aria(Account number)').fill(payee);
    await page.locator('::-p-aria(Description (optional))').fill('Book club');
    await page.locator('::-p-aria(Continue)').click();
    await page.waitForFunction(() => document.body.innerText.includes('Approve this transfer'));
    record('Transfer approval with a passkey (amount and payee shown)', await snapshot(page, { flags: FLAGS }));
    await browser.disconnect();
  } finally {
    await chrome?.kill();
    await stopBank(app);
  }
  console.log(`Lighthouse accessibility (snapshot and navigation, ${WIDTH} px, ${CHROME_PATH})`);
  console.log('| state | accessibility | failing audits |');
  console.log('|---|---|---|');
  for (const row of rows) console.log(`| ${row.state} | ${row.score.toFixed(2)} | ${row.failing.join(', ') || '-'} |`);
  if (rows.some((row) => row.score < 1)) process.exitCode = 1;
}

await main();
