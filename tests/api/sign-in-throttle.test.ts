import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SIGN_IN_ADDRESS_FREE_FAILURES,
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_EMAIL_CODE_AFTER_FAILURES,
  SIGN_IN_EMAIL_CODES_PER_HOUR,
  SIGN_IN_FREE_FAILURES,
  SIGN_IN_TICKET_TTL_MS,
} from '../../src/shared/limits';
import { bearer, createCustomer, createTestApp, json, mailbox, type TestContext } from '../support/app';

// Issue 13: five wrong passwords locked anyone's account for 15 minutes, forever repeatable, and
// five right-password tries on the admin sign-in locked the customer too. Now failures make the
// next attempts wait (429 with Retry-After), growing to a minute, and past a threshold the right
// password also needs a code emailed to the owner: the owner always gets in, an attacker never.

/** The system clock, moved forward by `offsetMs`: the waits are timed by the app's clock. */
const movableClock = () => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
};

let ctx: TestContext;
let limited: TestContext;
const clock = movableClock();
const limitedClock = movableClock();
beforeAll(async () => {
  // RATE_LIMITS=false (test runs) keeps the per-account waits and the emailed code; `limited` has
  // every limit on, the per-address ones included.
  [ctx, limited] = await Promise.all([createTestApp({ clock }), createTestApp({ clock: limitedClock, rateLimits: true, seedDemo: false })]);
});
afterAll(async () => Promise.all([ctx?.close(), limited?.close()]));
// Each test starts at the real time again: sessions are timed by the database's clock, so a test
// keeps its own moves well under the 15-minute idle timeout (every account is new in each test).
beforeEach(() => {
  clock.offsetMs = 0;
  limitedClock.offsetMs = 0;
});

type Jar = Record<string, string>;
const cookiesOf = (response: LightMyRequestResponse): Jar => Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]));
const cookieHeader = (jar: Jar) =>
  Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

function signInAt(app: TestContext, email: string, password: string, options: { address?: string; jar?: Jar; admin?: boolean } = {}) {
  return app.app.inject({
    method: 'POST',
    url: options.admin ? '/api/auth/admin/signin' : '/api/auth/signin',
    remoteAddress: options.address ?? '198.51.100.1',
    headers: options.jar && Object.keys(options.jar).length > 0 ? { cookie: cookieHeader(options.jar) } : {},
    payload: { email, password },
  });
}
const emailCode = (app: TestContext, ticket: unknown, code: unknown, jar: Jar = {}) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/signin/email-code',
    headers: Object.keys(jar).length > 0 ? { cookie: cookieHeader(jar) } : {},
    payload: { ticket, code },
  });
const retryAfter = (response: LightMyRequestResponse) => Number(response.headers['retry-after']);
const signInCodeMails = async (app: TestContext, email: string) =>
  (await mailbox(app)).filter((mail) => mail.to === email && /sign-in code/.test(mail.subject));
const codeIn = (text: string | undefined) => text?.match(/\b(\d{6})\b/)?.[1];

/**
 * An attacker making `failures` wrong guesses from rotating addresses, waiting out each 429 as told
 * (the clock moves by Retry-After). Answers the waits it was told, in seconds.
 */
async function attack(app: TestContext, appClock: { offsetMs: number }, email: string, failures: number, admin = false): Promise<number[]> {
  const waits: number[] = [];
  let failed = 0;
  while (failed < failures) {
    const response = await signInAt(app, email, `Wrong-Guess-${failed}-x`, { address: `203.0.113.${failed % 8}`, admin });
    if (response.statusCode === 429) {
      expect(json(response).message).toMatch(/^Too many failed sign-in attempts\. Please wait \d+ seconds? and try again\.$/);
      waits.push(retryAfter(response));
      appClock.offsetMs += retryAfter(response) * 1000;
      continue;
    }
    expect(response.statusCode, response.body).toBe(401);
    expect(json(response).message).toBe('Invalid email or password');
    failed += 1;
  }
  return waits;
}

/** A browser the owner has signed in from before: it keeps the ll_device cookie. */
async function ownersBrowser(app: TestContext, email: string, password: string): Promise<Jar> {
  const response = await signInAt(app, email, password, { address: '192.0.2.10' });
  expect(response.statusCode, response.body).toBe(200);
  const jar = cookiesOf(response);
  expect(jar.ll_device).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  return { ll_device: jar.ll_device! };
}

describe('sign-in throttling', () => {
  it("lets the owner in after an attacker's 20 failures, through a code emailed to the owner", async () => {
    const owner = await createCustomer(ctx);
    const browser = await ownersBrowser(ctx, owner.email, owner.password);

    const waits = await attack(ctx, clock, owner.email, 20);
    // The first failures are free; then each wait doubles, up to a minute. Never a lock.
    expect(waits.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(new Set(waits.slice(6))).toEqual(new Set([SIGN_IN_DELAY_MAX_MS / 1000]));
    // One wait after each failure past the free ones, but the last (the attacker stops there).
    expect(waits).toHaveLength(20 - SIGN_IN_FREE_FAILURES - 1);

    // The owner's browser is not kept waiting; the right password now needs the emailed code.
    const step = await signInAt(ctx, owner.email, owner.password, { address: '192.0.2.10', jar: browser });
    expect(step.statusCode, step.body).toBe(200);
    expect(json(step)).toEqual({
      data: { secondFactor: { ticket: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/), methods: ['email'] } },
      message: 'We emailed you a code to finish signing in.',
    });
    expect(step.cookies.find((cookie) => cookie.name === 'll_session')).toBeUndefined();
    const [mail] = await signInCodeMails(ctx, owner.email);
    expect(mail?.text).toContain('there were 20 failed attempts to sign in to your account');
    const code = codeIn(mail?.text);
    expect(code).toMatch(/^\d{6}$/);

    const done = await emailCode(ctx, json(step).data.secondFactor.ticket, code, browser);
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done).data.user.email).toBe(owner.email);
    expect(cookiesOf(done).ll_session).toBeTruthy();
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(json(done).data.token) })).statusCode).toBe(200);

    // The completed sign-in forgets the failures: the next one needs the password only.
    const next = await signInAt(ctx, owner.email, owner.password, { address: '192.0.2.11' });
    expect(next.statusCode).toBe(200);
    expect(json(next).data.token).toBeTruthy();
  });

  it('keeps an attacker who has the right password out: the ticket needs the code only the owner receives', async () => {
    const owner = await createCustomer(ctx);
    await attack(ctx, clock, owner.email, SIGN_IN_EMAIL_CODE_AFTER_FAILURES);
    clock.offsetMs += SIGN_IN_DELAY_MAX_MS;
    const step = await signInAt(ctx, owner.email, owner.password, { address: '203.0.113.99' });
    expect(step.statusCode).toBe(200);
    const ticket = json(step).data.secondFactor.ticket as string;
    expect(json(step).data.token).toBeUndefined();

    const owners = codeIn((await signInCodeMails(ctx, owner.email))[0]?.text)!;
    const wrong = owners === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await emailCode(ctx, ticket, wrong);
      expect(response.statusCode).toBe(401);
      expect(json(response).message).toBe(`The code is not correct. ${5 - attempt} attempt${5 - attempt === 1 ? '' : 's'} left.`);
    }
    const fifth = await emailCode(ctx, ticket, wrong);
    expect(fifth.statusCode).toBe(401);
    expect(json(fifth).message).toBe('Too many wrong attempts. Please sign in again.');
    // The ticket is spent: even the right code no longer opens anything.
    const late = await emailCode(ctx, ticket, owners);
    expect(late.statusCode).toBe(401);
    expect(json(late).message).toBe('Too many wrong attempts. Please sign in again.');
    const sessions = await ctx.database.db.selectFrom('sessions').select('id').where('user_id', '=', owner.userId).where('ip', '=', '203.0.113.99').execute();
    expect(sessions).toEqual([]);
  });

  it('sends the holder of the password at most 3 codes an hour (15 guesses), and still sends the owner theirs', async () => {
    const owner = await createCustomer(ctx);
    const browser = await ownersBrowser(ctx, owner.email, owner.password);
    await attack(ctx, clock, owner.email, SIGN_IN_EMAIL_CODE_AFTER_FAILURES);
    /** The right password from the attacker's machine, waiting out each 429 of the account's wait. */
    const attackerSignIn = async () => {
      for (;;) {
        const response = await signInAt(ctx, owner.email, owner.password, { address: '203.0.113.77' });
        if (response.statusCode !== 429 || !/^Too many failed sign-in attempts/.test(json(response).message)) return response;
        clock.offsetMs += retryAfter(response) * 1000;
      }
    };
    for (let ticket = 1; ticket <= SIGN_IN_EMAIL_CODES_PER_HOUR; ticket += 1) {
      const step = await attackerSignIn();
      expect(step.statusCode, step.body).toBe(200);
      expect(json(step).data.secondFactor.methods).toEqual(['email']);
    }
    expect(await signInCodeMails(ctx, owner.email)).toHaveLength(SIGN_IN_EMAIL_CODES_PER_HOUR);
    const capped = await attackerSignIn();
    expect(capped.statusCode).toBe(429);
    expect(json(capped).message).toMatch(
      /^We have already emailed the most sign-in codes we send in an hour for this account\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(retryAfter(capped)).toBeGreaterThan(0);
    expect(retryAfter(capped)).toBeLessThanOrEqual(60 * 60);
    expect(json(capped).data).toBeUndefined();
    expect(await signInCodeMails(ctx, owner.email)).toHaveLength(SIGN_IN_EMAIL_CODES_PER_HOUR);

    // The owner's browser is not capped: its code arrives and signs in.
    const owners = await signInAt(ctx, owner.email, owner.password, { address: '192.0.2.10', jar: browser });
    expect(owners.statusCode, owners.body).toBe(200);
    const mails = await signInCodeMails(ctx, owner.email);
    expect(mails).toHaveLength(SIGN_IN_EMAIL_CODES_PER_HOUR + 1);
    const done = await emailCode(ctx, json(owners).data.secondFactor.ticket, codeIn(mails[0]?.text), browser);
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done).data.user.email).toBe(owner.email);
  });

  it('lets a ticket live 5 minutes and work once, and refuses a malformed one', async () => {
    const owner = await createCustomer(ctx);
    await attack(ctx, clock, owner.email, SIGN_IN_EMAIL_CODE_AFTER_FAILURES);
    clock.offsetMs += SIGN_IN_DELAY_MAX_MS;
    const first = json(await signInAt(ctx, owner.email, owner.password)).data.secondFactor.ticket as string;
    const firstCode = codeIn((await signInCodeMails(ctx, owner.email))[0]?.text);
    clock.offsetMs += SIGN_IN_TICKET_TTL_MS + 1000;
    const expired = await emailCode(ctx, first, firstCode);
    expect(expired.statusCode).toBe(401);
    expect(json(expired).message).toBe('This sign-in has expired. Please sign in again.');

    const second = json(await signInAt(ctx, owner.email, owner.password)).data.secondFactor.ticket as string;
    const secondCode = codeIn((await signInCodeMails(ctx, owner.email))[0]?.text);
    expect((await emailCode(ctx, second, secondCode)).statusCode).toBe(200);
    expect((await emailCode(ctx, second, secondCode)).statusCode).toBe(401);

    for (const [ticket, code, message] of [
      [undefined, '123456', 'This sign-in has expired. Please sign in again.'],
      ['short', '123456', 'This sign-in has expired. Please sign in again.'],
      ['x'.repeat(201), '123456', 'This sign-in has expired. Please sign in again.'],
      [second, '12345', 'Enter the 6-digit code'],
      [second, 'abcdef', 'Enter the 6-digit code'],
      [second, 123456, 'Enter the 6-digit code'],
    ] as const) {
      const response = await emailCode(ctx, ticket, code);
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toBe(message);
    }
  });

  it('makes a new device of the owner wait its turn, never longer than a minute, then asks for the code', async () => {
    const owner = await createCustomer(ctx);
    await attack(ctx, clock, owner.email, 12);
    const early = await signInAt(ctx, owner.email, owner.password, { address: '192.0.2.50' });
    expect(early.statusCode).toBe(429);
    expect(retryAfter(early)).toBeGreaterThanOrEqual(1);
    expect(retryAfter(early)).toBeLessThanOrEqual(SIGN_IN_DELAY_MAX_MS / 1000);
    expect(early.headers['retry-after']).toMatch(/^\d+$/);
    clock.offsetMs += retryAfter(early) * 1000;
    const step = await signInAt(ctx, owner.email, owner.password, { address: '192.0.2.50' });
    expect(step.statusCode).toBe(200);
    const code = codeIn((await signInCodeMails(ctx, owner.email))[0]?.text);
    expect((await emailCode(ctx, json(step).data.secondFactor.ticket, code)).statusCode).toBe(200);
  });

  it('lets only one of many parallel guesses through once the waits have begun', async () => {
    const owner = await createCustomer(ctx);
    await attack(ctx, clock, owner.email, SIGN_IN_FREE_FAILURES);
    const statuses = (
      await Promise.all(
        Array.from({ length: 6 }, (_, index) => signInAt(ctx, owner.email, `Parallel-Guess-${index}-x`, { address: `203.0.113.${20 + index}` })),
      )
    ).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('counts customer and staff sign-ins apart: right-password tries on the admin sign-in cost the customer nothing', async () => {
    const customer = await createCustomer(ctx);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await signInAt(ctx, customer.email, customer.password, { admin: true });
      expect(response.statusCode).toBe(attempt <= SIGN_IN_FREE_FAILURES + 1 ? 401 : 429);
      if (response.statusCode === 429) clock.offsetMs += retryAfter(response) * 1000;
    }
    await attack(ctx, clock, customer.email, SIGN_IN_EMAIL_CODE_AFTER_FAILURES, true);
    const rows = await ctx.database.db
      .selectFrom('sign_in_throttle')
      .select(['scope', 'failures'])
      .where('subject', '=', `account:${customer.email}`)
      .execute();
    expect(rows).toEqual([{ scope: 'staff', failures: SIGN_IN_FREE_FAILURES + 1 + SIGN_IN_EMAIL_CODE_AFTER_FAILURES }]);
    // The customer's own sign-in: no wait, no code.
    const response = await signInAt(ctx, customer.email, customer.password);
    expect(response.statusCode).toBe(200);
    expect(json(response).data.token).toBeTruthy();
  });

  it('answers an unknown email exactly as a registered one, and mails nobody', async () => {
    const stranger = `nobody.${Date.now()}@example.com`;
    const known = await createCustomer(ctx);
    const [strangerWaits, knownWaits] = [await attack(ctx, clock, stranger, 12), await attack(ctx, clock, known.email, 12)];
    expect(strangerWaits).toEqual(knownWaits);
    expect((await mailbox(ctx)).filter((mail) => mail.to === stranger)).toEqual([]);
  });

  it('forgets the failures when the owner resets the password', async () => {
    const owner = await createCustomer(ctx);
    await attack(ctx, clock, owner.email, SIGN_IN_EMAIL_CODE_AFTER_FAILURES + 2);
    await ctx.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: owner.email } });
    const token = (await mailbox(ctx)).find((mail) => mail.to === owner.email && /reset/i.test(mail.subject))?.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
    const reset = await ctx.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Fresh-Meadow-4417' } });
    expect(reset.statusCode, reset.body).toBe(200);
    const response = await signInAt(ctx, owner.email, 'Fresh-Meadow-4417');
    expect(response.statusCode).toBe(200);
    expect(json(response).data.token).toBeTruthy();
  });
});

describe('per-address sign-in throttling (RATE_LIMITS on)', () => {
  it('slows an address that fails on many accounts, and leaves other addresses alone', async () => {
    const address = '198.51.100.77';
    const spray = (index: number, from = address) => signInAt(limited, `spray.${index}@example.com`, 'Sprayed-Guess-1x', { address: from });
    const statuses: number[] = [];
    for (let index = 0; index < SIGN_IN_ADDRESS_FREE_FAILURES; index += 1) statuses.push((await spray(index)).statusCode);
    expect(new Set(statuses)).toEqual(new Set([401]));
    // The route's own limit (20 a minute per address) would stop the next one; its minute is made to pass.
    await limited.database.pool.query(`update rate_limits set window_ends_at = now() - interval '1 second'`);
    expect((await spray(100)).statusCode).toBe(401);
    const slowed = await spray(101);
    expect(slowed.statusCode).toBe(429);
    expect(json(slowed).message).toBe('Too many failed sign-in attempts. Please wait 1 second and try again.');
    expect(slowed.headers['retry-after']).toBe('1');
    expect((await spray(102, '198.51.100.78')).statusCode).toBe(401);
    limitedClock.offsetMs += 1000;
    expect((await spray(103)).statusCode).toBe(401);
  });

  it('is off with RATE_LIMITS=false: the same spray from one address is never slowed', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < SIGN_IN_ADDRESS_FREE_FAILURES + 3; index += 1) {
      statuses.push((await signInAt(ctx, `spray.${index}.${Date.now()}@example.com`, 'Sprayed-Guess-1x', { address: '198.51.100.79' })).statusCode);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
  });
});
