import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/auth/crypto';
import { MONEY_CALL_FLUSH_MS, MoneyCallCounter, type MoneyCallHit } from '../../src/server/plugins/rate-limit';
import { PAYMENT_HOLD_MS } from '../../src/shared/limits';
import { adminToken, bearer, createCustomer, createTestApp, json, lastCode, mailbox, signIn, type TestContext, staffCall, fund } from '../support/app';

// Issue 13: codes could be asked for without end (40 codes and 200 guesses in 1.3 s), a code for
// "rent" posted another memo, and a customer could post without limit (1,110 entries in 6 s).

const DAY_MS = 24 * 60 * 60 * 1000;
/** The system clock moved by `offsetMs` (the app's services, code rows and holds read it). */
const movableClock = () => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
};

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestApp({ rateLimits: true, clock });
});
afterAll(async () => ctx?.close());
beforeEach(() => {
  clock.offsetMs = 0;
});

let keySeq = 0;
const key = () => `limits-${Date.now()}-${keySeq++}`;
// Each call from its own address: the routes' per-address limits (30 transfers a minute) are not
// what these tests are about, and every test here runs within one minute.
const address = () => `10.${keySeq % 250}.${Math.floor(keySeq / 250) % 250}.7`;
const post = (app: TestContext, token: string, url: string, payload: Record<string, unknown>) =>
  app.app.inject({ method: 'POST', url, remoteAddress: address(), headers: { ...bearer(token), 'idempotency-key': key() }, payload });

const balances = async (app: TestContext, token: string) =>
  json(await app.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;
const wire = {
  amount: 40,
  account: 'checking',
  beneficiaryName: 'Hans Muster',
  beneficiaryAccount: 'DE89370400440532013000',
  bankName: 'Commerzbank',
  country: 'DE',
  swiftCode: 'COBADEFFXXX',
  accountType: 'CURRENT',
};

describe('the transfer code is bound to the description too', () => {
  it('does not post another memo (or none) with the code issued for "rent", to a customer of the bank', async () => {
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500);
    const rent = { amount: 100, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person', description: 'rent' };
    expect((await post(ctx, sender.token, '/api/transaction/transfer', rent)).statusCode).toBe(200);
    const code = await lastCode(ctx, sender.email);
    expect((await mailbox(ctx))[0]?.text).toContain('with the description "rent"');

    for (const description of ['groceries', undefined]) {
      const other = await post(ctx, sender.token, '/api/transaction/transfer', { ...rent, description, paymentPin: code });
      expect(other.statusCode).toBe(400);
      expect(json(other).message).toBe('No IMS code is waiting for this transfer. Please request a new code.');
    }
    expect((await balances(ctx, sender.token)).checking).toBe(500);
    const done = await post(ctx, sender.token, '/api/transaction/transfer', { ...rent, paymentPin: code });
    expect(done.statusCode, done.body).toBe(201);
    expect(json(done).data).toMatchObject({ description: 'rent', amount: 100 });
  });

  it('does not post another memo with the code issued for a wire', async () => {
    const sender = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500);
    const invoice = { ...wire, description: 'Invoice 42' };
    expect((await post(ctx, sender.token, '/api/transaction/wire-transfer', invoice)).statusCode).toBe(200);
    const code = await lastCode(ctx, sender.email);
    const other = await post(ctx, sender.token, '/api/transaction/wire-transfer', { ...invoice, description: 'Invoice 43', paymentPin: code });
    expect(other.statusCode).toBe(400);
    expect(json(other).message).toBe('No IMS code is waiting for this transfer. Please request a new code.');
    expect((await post(ctx, sender.token, '/api/transaction/wire-transfer', { ...invoice, paymentPin: code })).statusCode).toBe(201);
    expect((await balances(ctx, sender.token)).checking).toBe(460);
  });
});

describe('transfer codes per customer per hour', () => {
  it('refuses the 6th code request in the hour with 429 and Retry-After, and sends no 6th code', async () => {
    // The codes are asked for an hour (and a second) ago by the app's clock; then it comes back to now.
    clock.offsetMs = -(60 * 60 * 1000 + 1000);
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500);
    const transfer = { amount: 10, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person' };
    // Each step says how many more codes the hour allows, so the page can say so before they run out.
    for (let request = 1; request <= 4; request += 1) {
      const step = await post(ctx, sender.token, '/api/transaction/transfer', transfer);
      expect(step.statusCode).toBe(200);
      expect(json(step).data.codesLeft).toBe(5 - request);
    }
    // A wire's code counts too.
    const fifth = await post(ctx, sender.token, '/api/transaction/wire-transfer', wire);
    expect(fifth.statusCode).toBe(200);
    expect(json(fifth).data.codesLeft).toBe(0);
    const sixth = await post(ctx, sender.token, '/api/transaction/transfer', transfer);
    expect(sixth.statusCode).toBe(429);
    expect(json(sixth).message).toBe('You have asked for 5 IMS codes in the last hour, the most we send. Please wait 60 minutes before asking for another.');
    expect(sixth.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect((await post(ctx, sender.token, '/api/transaction/wire-transfer', wire)).statusCode).toBe(429);
    const codes = await ctx.database.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('user_id', '=', sender.userId)
      .where('purpose', '=', 'transfer')
      .execute();
    expect(codes).toHaveLength(5);
    expect((await mailbox(ctx)).filter((mail) => mail.to === sender.email && /IMS code/.test(mail.subject))).toHaveLength(5);
    // Other customers are not affected; and once the hour has passed, the customer may ask again.
    const other = await createCustomer(ctx);
    await fund(ctx, other.userId, 50);
    expect((await post(ctx, other.token, '/api/transaction/transfer', { ...transfer, accountNumber: sender.accountNumber })).statusCode).toBe(200);
    clock.offsetMs = 0;
    expect((await post(ctx, sender.token, '/api/transaction/transfer', transfer)).statusCode).toBe(200);
  });
});

describe('wrong transfer codes per customer per day', () => {
  /** Ten wrong codes: two codes asked for, each tried five times with a wrong code. Answers the last answer. */
  async function tenWrongCodes(token: string, email: string, transfer: Record<string, unknown>) {
    let last;
    for (let round = 0; round < 2; round += 1) {
      expect((await post(ctx, token, '/api/transaction/transfer', transfer)).statusCode).toBe(200);
      const code = await lastCode(ctx, email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        last = await post(ctx, token, '/api/transaction/transfer', { ...transfer, paymentPin: wrong });
        if (round * 5 + attempt < 10) expect(last.statusCode, `wrong code ${round * 5 + attempt}`).toBe(400);
      }
    }
    return last!;
  }

  it('holds outgoing payments after the 10th, emails the customer, and lets staff release them (audited)', async () => {
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500);
    const transfer = { amount: 10, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person' };
    const tenth = await tenWrongCodes(sender.token, sender.email, transfer);
    expect(tenth.statusCode).toBe(429);
    expect(json(tenth).message).toMatch(
      /^Your outgoing payments are on hold until \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d \(UTC\) after too many failed payment approvals \(wrong IMS codes or refused passkey answers\)\. Moves between your own accounts still work; contact support to release them sooner\.$/,
    );
    expect(Number(tenth.headers['retry-after'])).toBeGreaterThan(PAYMENT_HOLD_MS / 1000 - 60);
    expect(Number(tenth.headers['retry-after'])).toBeLessThanOrEqual(PAYMENT_HOLD_MS / 1000);
    const held = (await mailbox(ctx)).find((mail) => mail.to === sender.email && /outgoing payments on hold/.test(mail.subject));
    expect(held?.text).toContain('After 10 failed payment approvals today (wrong IMS codes or refused passkey answers)');

    // Payments out are refused, the code step included; moves between own accounts go on.
    for (const [url, body] of [
      ['/api/transaction/transfer', transfer],
      ['/api/transaction/wire-transfer', wire],
    ] as const) {
      const refused = await post(ctx, sender.token, url, body);
      expect(refused.statusCode).toBe(429);
      expect(json(refused).message).toBe(json(tenth).message);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await post(ctx, sender.token, '/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 5 })).statusCode).toBe(201);

    // Staff see the hold on the user page's call, and release it with a reason.
    const admin = await adminToken(ctx);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${sender.userId}/payment-hold`, headers: bearer(admin) });
    expect(view.statusCode).toBe(200);
    expect(json(view).data).toEqual({ held: true, heldUntil: expect.any(String), wrongCodes: 10, wrongCodesPerDay: 10 });
    const customerTries = await staffCall(ctx, {
      method: 'POST',
      url: `/api/user/admin/${sender.userId}/payment-hold/release`,
      headers: bearer(sender.token),
      payload: { reason: 'I typed them' },
    });
    expect(customerTries.statusCode).toBe(403);
    const noReason = await staffCall(ctx, {
      method: 'POST',
      url: `/api/user/admin/${sender.userId}/payment-hold/release`,
      headers: bearer(admin),
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason).message).toBe('A reason is required');
    const release = await staffCall(ctx, {
      method: 'POST',
      url: `/api/user/admin/${sender.userId}/payment-hold/release`,
      headers: bearer(admin),
      payload: { reason: 'Customer called: mistyped codes' },
    });
    expect(release.statusCode, release.body).toBe(200);
    expect(json(release)).toEqual({ data: { held: false, heldUntil: null, wrongCodes: 0, wrongCodesPerDay: 10 }, message: 'Outgoing payments released' });
    const audit = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'reason', 'after'])
      .where('target_user_id', '=', sender.userId)
      .where('action', 'like', 'payments.%')
      .orderBy('at')
      .execute();
    expect(audit).toEqual([
      { action: 'payments.hold', actor_email: null, reason: '10 wrong transfer codes in a day', after: { held: true, heldUntil: expect.any(String) } },
      { action: 'payments.release', actor_email: 'admin@example.com', reason: 'Customer called: mistyped codes', after: { held: false } },
    ]);
    const again = await staffCall(ctx, {
      method: 'POST',
      url: `/api/user/admin/${sender.userId}/payment-hold/release`,
      headers: bearer(admin),
      payload: { reason: 'again' },
    });
    expect(again.statusCode).toBe(400);
    expect(json(again).message).toBe("This customer's payments are not on hold.");

    // Released: the customer pays again, and the wrong codes count from the release.
    expect((await post(ctx, sender.token, '/api/transaction/transfer', transfer)).statusCode).toBe(200);
    const done = await post(ctx, sender.token, '/api/transaction/transfer', { ...transfer, paymentPin: await lastCode(ctx, sender.email) });
    expect(done.statusCode, done.body).toBe(201);
  });

  it('lets the hold run out after 24 hours without staff', async () => {
    // The hold starts a day (and a minute) ago by the app's clock; then the clock comes back to now.
    clock.offsetMs = -(DAY_MS + 60_000);
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500);
    const transfer = { amount: 10, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person' };
    expect((await tenWrongCodes(sender.token, sender.email, transfer)).statusCode).toBe(429);
    expect((await post(ctx, sender.token, '/api/transaction/transfer', transfer)).statusCode).toBe(429);

    clock.offsetMs = 0;
    // The old session ran out with the day; a new sign-in pays again.
    const token = await signIn(ctx, sender.email, sender.password);
    expect((await post(ctx, token, '/api/transaction/transfer', transfer)).statusCode).toBe(200);
    expect((await post(ctx, token, '/api/transaction/transfer', { ...transfer, paymentPin: await lastCode(ctx, sender.email) })).statusCode).toBe(201);
    const view = await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${sender.userId}/payment-hold`, headers: bearer(await adminToken(ctx)) });
    expect(json(view).data).toMatchObject({ held: false, heldUntil: null, wrongCodes: 0 });
  });

  it('answers 404 for an unknown user or an admin, and 401 without a session', async () => {
    const admin = await adminToken(ctx);
    const adminId = json(await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(admin) })).data._id;
    for (const id of ['00000000-0000-4000-8000-000000000000', adminId]) {
      expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${id}/payment-hold`, headers: bearer(admin) })).statusCode).toBe(404);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${adminId}/payment-hold` })).statusCode).toBe(401);
  });
});

describe('money calls per customer per minute', () => {
  let capped: TestContext;
  let unlimited: TestContext;
  // The capped app's clock, moved forward past a customer's minute by one test.
  let ahead = 0;
  const clock = { now: () => new Date(Date.now() + ahead) };
  /** A customer's shared count, once this process has added what it counted (MONEY_CALL_FLUSH_MS). */
  const hits = async (userId: string) => {
    await new Promise((resolve) => setTimeout(resolve, 3 * MONEY_CALL_FLUSH_MS));
    const { rows } = await capped.database.pool.query(`select hits from rate_limits where key = $1 and window_ends_at > now()`, [`money-calls user:${userId}`]);
    return Number(rows[0]?.hits ?? 0);
  };
  beforeAll(async () => {
    [capped, unlimited] = await Promise.all([
      createTestApp({ rateLimits: true, seedDemo: true, env: { MONEY_CALLS_PER_MINUTE: '5' }, clock }),
      createTestApp({ rateLimits: false, seedDemo: true, env: { MONEY_CALLS_PER_MINUTE: '5' } }),
    ]);
  });
  afterAll(async () => Promise.all([capped?.close(), unlimited?.close()]));

  it('refuses the customer past MONEY_CALLS_PER_MINUTE, on every money call, with 429 and Retry-After', async () => {
    const customer = await createCustomer(capped);
    const other = await createCustomer(capped);
    await fund(capped, customer.userId, 100);
    await fund(capped, other.userId, 100);
    const move = { from: 'checking', to: 'savings', amount: 1 };
    for (let call = 1; call <= 5; call += 1) {
      const response = await post(capped, customer.token, '/api/transaction/internal-transfer', move);
      expect(response.statusCode, `call ${call}`).toBe(201);
    }
    const sixth = await post(capped, customer.token, '/api/transaction/internal-transfer', move);
    expect(sixth.statusCode).toBe(429);
    expect(json(sixth).message).toBe('Too many payments in a minute. Please wait a moment and try again.');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(
      (await post(capped, customer.token, '/api/transaction/transfer', { amount: 1, accountType: 'checking', accountNumber: other.accountNumber, to: 'O' }))
        .statusCode,
    ).toBe(429);
    expect((await post(capped, customer.token, '/api/transaction/wire-transfer', wire)).statusCode).toBe(429);
    expect((await balances(capped, customer.token)).savings).toBe(5);
    // The finding used two sessions: the cap is the customer's, so a fresh session is refused too.
    const secondSession = await signIn(capped, customer.email, customer.password);
    const fromSecond = await post(capped, secondSession, '/api/transaction/internal-transfer', move);
    expect(fromSecond.statusCode).toBe(429);
    expect(json(fromSecond).message).toBe('Too many payments in a minute. Please wait a moment and try again.');
    expect((await balances(capped, customer.token)).savings).toBe(5);
    // Per customer: another one is not slowed; reading is not a money call.
    expect((await post(capped, other.token, '/api/transaction/internal-transfer', move)).statusCode).toBe(201);
    expect((await capped.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).statusCode).toBe(200);
    // The next minute the customer pays again.
    await capped.database.pool.query(`update rate_limits set window_ends_at = now() - interval '1 second' where key like 'money-calls %'`);
    ahead = 61_000;
    try {
      expect((await post(capped, customer.token, '/api/transaction/internal-transfer', move)).statusCode).toBe(201);
    } finally {
      ahead = 0;
    }
  });

  it('counts a money call only for a live session of a customer who may pay', async () => {
    const customer = await createCustomer(capped);
    await fund(capped, customer.userId, 100);
    const move = { from: 'checking', to: 'savings', amount: 1 };
    const paid = await post(capped, customer.token, '/api/transaction/internal-transfer', move);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await hits(customer.userId)).toBe(1);
    // A signed-out session and an idle one: 401, and the customer's count does not move.
    const signedOut = await signIn(capped, customer.email, customer.password);
    expect((await capped.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(signedOut) })).statusCode).toBeLessThan(300);
    const idle = await signIn(capped, customer.email, customer.password);
    await capped.database.pool.query(`update sessions set last_seen_at = now() - interval '1 day' where token_hash = $1`, [sha256(idle)]);
    for (const token of [signedOut, idle]) {
      const refused = await post(capped, token, '/api/transaction/internal-transfer', move);
      expect(refused.statusCode, refused.body).toBe(401);
    }
    expect(await hits(customer.userId)).toBe(1);
    // A customer who has not confirmed their email is refused by the access check, and not counted.
    const unconfirmed = await createCustomer(capped);
    await capped.database.pool.query(`update users set is_email_confirmed = false where id = $1`, [unconfirmed.userId]);
    const notYet = await post(capped, unconfirmed.token, '/api/transaction/internal-transfer', move);
    expect(notYet.statusCode).toBe(403);
    expect(json(notYet).message).toBe('Please verify your email address first.');
    expect(await hits(unconfirmed.userId)).toBe(0);
    // Staff are refused customer money calls, and nothing is counted for them either.
    const admin = await adminToken(capped);
    const adminId = json(await capped.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(admin) })).data._id as string;
    expect((await post(capped, admin, '/api/transaction/internal-transfer', move)).statusCode).toBe(403);
    expect(await hits(adminId)).toBe(0);
    // The same counter as every other money call: four more pass, the next is refused.
    for (let call = 2; call <= 5; call += 1) expect((await post(capped, customer.token, '/api/transaction/internal-transfer', move)).statusCode).toBe(201);
    expect((await post(capped, customer.token, '/api/transaction/internal-transfer', move)).statusCode).toBe(429);
    expect(await hits(customer.userId)).toBe(6);
  });

  it("answers each call its place at once, a window's first after the shared count, and adds them to it within a flush", async () => {
    const { userId } = await createCustomer(capped);
    const counter = new MoneyCallCounter(capped.context.db);
    try {
      // No window known: the first call waits for the shared count (a process that just started).
      const first = counter.hit(userId);
      expect(first).toBeInstanceOf(Promise);
      expect(await first).toMatchObject({ hits: 1 });
      // Known: the next ones are answered at once, in order, and reach the shared count together.
      const next = [counter.hit(userId), counter.hit(userId), counter.hit(userId)];
      for (const hit of next) expect(hit).not.toBeInstanceOf(Promise);
      expect(next.map((hit) => (hit as MoneyCallHit).hits)).toEqual([2, 3, 4]);
      for (const hit of next) expect((hit as MoneyCallHit).ttlMs).toBeGreaterThan(55_000);
      expect(await hits(userId)).toBe(4);
    } finally {
      await counter.close();
    }
  });

  it("shares one count between processes: a process learns the others' calls before its first answer and at each flush", async () => {
    const { userId } = await createCustomer(capped);
    const [one, two] = [new MoneyCallCounter(capped.context.db), new MoneyCallCounter(capped.context.db)];
    try {
      expect(await one.hit(userId)).toMatchObject({ hits: 1 });
      expect(one.hit(userId)).toMatchObject({ hits: 2 });
      expect(one.hit(userId)).toMatchObject({ hits: 3 });
      await one.flush();
      // The second process has no window of this customer's: it waits, and learns the first's three.
      expect(await two.hit(userId)).toMatchObject({ hits: 4 });
      // Between flushes each answers from what it last heard: the first does not know the second's
      // call yet (the documented overshoot, one interval)...
      expect(one.hit(userId)).toMatchObject({ hits: 4 });
      // ...and learns it with its next flush, as the second learns the first's with its own.
      await one.flush();
      expect(one.hit(userId)).toMatchObject({ hits: 6 });
      await one.flush();
      expect(two.hit(userId)).toMatchObject({ hits: 5 });
      await two.flush();
      expect(two.hit(userId)).toMatchObject({ hits: 8 });
      await two.flush();
      expect(await hits(userId)).toBe(8);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('lets exactly MONEY_CALLS_PER_MINUTE of many concurrent money calls through, whatever shares a lookup', async () => {
    const customer = await createCustomer(capped);
    const other = await createCustomer(capped);
    await fund(capped, customer.userId, 100);
    await fund(capped, other.userId, 100);
    const move = { from: 'checking', to: 'savings', amount: 1 };
    const [mine, others, reads] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => post(capped, customer.token, '/api/transaction/internal-transfer', move))),
      Promise.all(Array.from({ length: 3 }, () => post(capped, other.token, '/api/transaction/internal-transfer', move))),
      Promise.all(Array.from({ length: 4 }, () => capped.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) }))),
    ]);
    expect(mine.map((response) => response.statusCode).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    expect(others.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    expect(reads.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await balances(capped, customer.token)).savings).toBe(5);
  });

  it('counts nothing with RATE_LIMITS=false (test runs)', async () => {
    const customer = await createCustomer(unlimited);
    await fund(unlimited, customer.userId, 100);
    for (let call = 1; call <= 8; call += 1) {
      expect((await post(unlimited, customer.token, '/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 1 })).statusCode).toBe(
        201,
      );
    }
    const { rows } = await unlimited.database.pool.query(`select 1 from rate_limits where key like 'money-calls %'`);
    expect(rows).toEqual([]);
  });
});
