import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_REQUEST_ALREADY_PAID_MESSAGE, PAYMENT_REQUESTS_PER_HOUR_MAX } from '../../src/shared/contracts/payment-requests';
import { generateAccountNumber } from '../../src/server/ledger/accounts';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, createTestApp, drainJobs, json, lastCode, mailbox, type TestContext, fund } from '../support/app';

// Issue 14's payment requests (ADR 020): asking another customer for money, the same answer for a
// stranger, the limit per customer, the lists, paying with the payer's own IMS code exactly once,
// declining, and someone else's request answering 404.

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;

const post = (token: string, url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
const pay = (token: string, id: string, payload: Record<string, unknown> = {}, key = randomUUID()) =>
  post(token, `/api/payment-requests/${id}/pay`, payload, { 'idempotency-key': key });
const decline = (token: string, id: string) => post(token, `/api/payment-requests/${id}/decline`);
const lists = async (token: string) => {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/payment-requests', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).data as {
    received: { items: Array<Record<string, unknown>>; total: number };
    sent: { items: Array<Record<string, unknown>>; total: number };
  };
};
const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;
const notifications = async (token: string) =>
  json(await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: bearer(token) })).data.items as Array<{
    kind: string;
    title: string;
    link: string | null;
  }>;
const requestCount = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('payment_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const entryCount = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A request from `requester` to `payer` (by email), answered 201. */
async function ask(requester: Customer, payer: Customer, amount: number | string, note?: string) {
  const response = await post(requester.token, '/api/payment-requests', { to: payer.email, amount, ...(note ? { note } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return json(response).data as { id: string };
}

describe('asking for money', () => {
  it('answers 201 with the request as sent, and the payer hears of it (in the app and by email)', async () => {
    const [alex, jamie] = [await createCustomer(ctx, { firstName: 'Alex', lastName: 'Asker' }), await createCustomer(ctx)];
    const response = await post(alex.token, '/api/payment-requests', { to: jamie.email.toUpperCase(), amount: '25.50', note: 'Pizza on Friday' });
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(body).toEqual({
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        direction: 'sent',
        counterparty: jamie.email,
        amount: 25.5,
        note: 'Pizza on Friday',
        status: 'pending',
        createdAt: expect.any(String),
        answeredAt: null,
        expiresAt: expect.any(String),
        entryId: null,
      },
      message: 'Payment request sent',
    });
    // It expires 30 days after it was made (PAYMENT_REQUEST_EXPIRY_DAYS; tests/api/payment-request-lifecycle.test.ts).
    expect(new Date(body.data.expiresAt).getTime() - new Date(body.data.createdAt).getTime()).toBe(30 * 24 * 60 * 60 * 1000);

    await drainJobs(ctx);
    const items = await notifications(jamie.token);
    expect(items[0]).toMatchObject({ kind: 'payment_request_received', title: 'Alex Asker asks you for $25.50', link: '/account/requests' });
    const mail = (await mailbox(ctx)).find((message) => message.to === jamie.email && message.subject.includes('asks you for'));
    expect(mail?.text).toContain('"Pizza on Friday"');

    // By account number too (spaces allowed), and both lists show it.
    const byNumber = await post(alex.token, '/api/payment-requests', { to: `${jamie.accountNumber.slice(0, 5)} ${jamie.accountNumber.slice(5)}`, amount: 3 });
    expect(byNumber.statusCode, byNumber.body).toBe(201);
    expect(json(byNumber).data.counterparty).toBe(jamie.accountNumber);
    const jamieLists = await lists(jamie.token);
    expect(jamieLists.received.total).toBe(2);
    expect(jamieLists.received.items.map((item) => [item.direction, item.counterparty, item.amount])).toEqual([
      ['received', 'Alex Asker', 3],
      ['received', 'Alex Asker', 25.5],
    ]);
    expect(jamieLists.sent).toMatchObject({ items: [], total: 0 });
    const alexLists = await lists(alex.token);
    expect(alexLists.sent.items.map((item) => item.counterparty)).toEqual([jamie.accountNumber, jamie.email]);
    expect(alexLists.received.total).toBe(0);
  });

  it('answers a stranger exactly as a customer, and sends a stranger nothing', async () => {
    const [alex, jamie] = [await createCustomer(ctx), await createCustomer(ctx)];
    const stranger = `nobody.${randomUUID().slice(0, 8)}@example.com`;
    let unusedNumber = generateAccountNumber();
    while ((await ctx.database.db.selectFrom('ledger_accounts').select('id').where('number', '=', unusedNumber).executeTakeFirst()) !== undefined)
      unusedNumber = generateAccountNumber();

    const answers = [];
    for (const to of [jamie.email, stranger, jamie.accountNumber, unusedNumber]) {
      const response = await post(alex.token, '/api/payment-requests', { to, amount: 12, note: 'Tickets' });
      const { id, createdAt, expiresAt, counterparty, ...rest } = json(response).data;
      expect([id, createdAt, expiresAt, counterparty]).toEqual([expect.any(String), expect.any(String), expect.any(String), to]);
      answers.push({ status: response.statusCode, message: json(response).message, rest, headers: Object.keys(response.headers).sort() });
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);

    await drainJobs(ctx);
    expect((await mailbox(ctx)).filter((message) => message.to === stranger)).toEqual([]);
    // The stranger's request waits in the requester's list like any other; only the customer was told.
    expect((await lists(alex.token)).sent.items.map((item) => item.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect((await notifications(jamie.token)).filter((item) => item.kind === 'payment_request_received')).toHaveLength(2);
  });

  it('refuses bad input and a request to yourself with a clear 400, writing nothing', async () => {
    const alex = await createCustomer(ctx);
    const before = await requestCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 5 }, 'Please enter who you are asking'],
      [{ to: '  ', amount: 5 }, 'Please enter who you are asking'],
      [{ to: 'not an email', amount: 5 }, 'Enter the email address or the 10-digit account number of the person you ask'],
      [{ to: '12345', amount: 5 }, 'Account numbers here are 10 digits'],
      [{ to: 'someone@example.com' }, 'Please enter an amount'],
      [{ to: 'someone@example.com', amount: 0 }, 'Amount must be greater than 0'],
      [{ to: 'someone@example.com', amount: '1.234' }, 'Amount can have at most 2 decimal places'],
      [{ to: 'someone@example.com', amount: 'abc' }, 'Amount must be a number, e.g. 25 or 99.50'],
      [{ to: 'someone@example.com', amount: '1,000.00' }, 'Amount must be typed without commas, e.g. 1000.00'],
      [{ to: 'someone@example.com', amount: '99999999999999999999' }, 'Amount must be at most $10,000,000.00'],
      [{ to: 'someone@example.com', amount: 1e20 }, 'Amount must be at most $10,000,000.00'],
      [{ to: 'someone@example.com', amount: 5, note: 'x'.repeat(141) }, 'Note must be at most 140 characters'],
      [{ to: 'someone@example.com', amount: 5, note: 'bad\u0000note' }, 'Note must not contain control characters'],
      [{ to: alex.email.toUpperCase(), amount: 5 }, 'You cannot request money from yourself'],
      [{ to: alex.accountNumber, amount: 5 }, 'You cannot request money from yourself'],
    ];
    for (const [payload, message] of cases) {
      const response = await post(alex.token, '/api/payment-requests', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(json(response).message, JSON.stringify(payload)).toBe(message);
    }
    expect(await requestCount()).toBe(before);
  });

  it('is for signed-in customers only', async () => {
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/payment-requests', payload: { to: 'a@example.com', amount: 1 } });
    expect(anonymous.statusCode).toBe(401);
    const staff = await post(admin, '/api/payment-requests', { to: 'a@example.com', amount: 1 });
    expect(staff.statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/payment-requests' })).statusCode).toBe(401);
  });
});

describe('paying a request', () => {
  it('emails a code bound to the request, pays exactly once with it, and tells the requester', async () => {
    const [alex, jamie] = [
      await createCustomer(ctx, { firstName: 'Alex', lastName: 'Asker' }),
      await createCustomer(ctx, { firstName: 'Jamie', lastName: 'Payer' }),
    ];
    await fund(ctx, jamie.userId, 100, { account: 'savings' });
    await fund(ctx, jamie.userId, 50, { account: 'checking' });
    const { id } = await ask(alex, jamie, 40, 'Concert');
    const entriesBefore = await entryCount();

    // Step 1: a code, nothing posted.
    const step1 = await pay(jamie.token, id, { from: 'savings' });
    expect(step1.statusCode, step1.body).toBe(200);
    expect(json(step1)).toEqual({
      data: {
        step: 'code',
        expiresAt: expect.any(String),
        sentTo: expect.stringContaining('@'),
        amount: 40,
        payee: expect.stringMatching(/^Alex Asker \(account ending \d{4}\)$/),
      },
      message: expect.stringMatching(/^We emailed your IMS code to .* It is free and works only for this payment\.$/),
    });
    const code = await lastCode(ctx, jamie.email);
    expect((await mailbox(ctx)).find((mail) => mail.to === jamie.email && mail.text.includes(code))?.text).toContain(
      'It authorizes only this payment: $40.00 from your savings account to Alex Asker',
    );
    expect(await entryCount()).toBe(entriesBefore);
    expect((await balances(jamie.token)).savings).toBe(100);

    // The code is bound to the account paying: from checking it is no code at all.
    const otherAccount = await pay(jamie.token, id, { from: 'checking', paymentPin: code });
    expect(otherAccount.statusCode).toBe(400);
    expect(json(otherAccount).message).toMatch(/^No IMS code is waiting/);
    const wrong = await pay(jamie.token, id, { from: 'savings', paymentPin: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toBe('The IMS code is not correct. 4 attempts left.');

    // Step 2: paid.
    const key = randomUUID();
    const paid = await pay(jamie.token, id, { from: 'savings', paymentPin: code }, key);
    expect(paid.statusCode, paid.body).toBe(201);
    const body = json(paid);
    expect(body.message).toBe('Payment sent');
    expect(body.data.request).toMatchObject({ id, direction: 'received', counterparty: 'Alex Asker', amount: 40, status: 'paid', entryId: expect.any(String) });
    expect(body.data.transaction).toMatchObject({
      amount: 40,
      transactionType: 'debit',
      account: 'savings',
      kind: 'transfer',
      description: 'Payment request: Concert',
      balanceAfter: 60,
    });
    expect(await entryCount()).toBe(entriesBefore + 1);
    expect((await balances(jamie.token)).savings).toBe(60);
    expect((await balances(alex.token)).checking).toBe(40);

    // A retry of the same call replays its answer; another call is refused: nothing more is posted.
    const replay = await pay(jamie.token, id, { from: 'savings', paymentPin: code }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(json(replay)).toEqual(body);
    const again = await pay(jamie.token, id, { from: 'savings' });
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toBe('This payment request has already been paid');
    const declineAfter = await decline(jamie.token, id);
    expect(declineAfter.statusCode).toBe(409);
    expect(await entryCount()).toBe(entriesBefore + 1);
    expect((await balances(jamie.token)).savings).toBe(60);

    // Both lists say paid; the requester was told.
    expect((await lists(alex.token)).sent.items[0]).toMatchObject({ id, status: 'paid', entryId: body.data.request.entryId, answeredAt: expect.any(String) });
    await drainJobs(ctx);
    const told = (await notifications(alex.token)).find((item) => item.kind === 'payment_request_answered');
    expect(told).toMatchObject({ title: 'Jamie Payer paid your request for $40.00', link: '/account/requests' });
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('pays once when the code is sent many times at once', async () => {
    const [alex, jamie] = [await createCustomer(ctx), await createCustomer(ctx)];
    await fund(ctx, jamie.userId, 100);
    const { id } = await ask(alex, jamie, 7);
    expect((await pay(jamie.token, id, { from: 'checking' })).statusCode).toBe(200);
    const code = await lastCode(ctx, jamie.email);
    const entriesBefore = await entryCount();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(jamie.token, id, { from: 'checking', paymentPin: code })));
    // One pays; each other is refused, by the spent code (400) or, when it comes after the payment
    // committed, by the request being paid already (409): which one depends on timing.
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect([400, 409], refused.body).toContain(refused.statusCode);
      if (refused.statusCode === 409) expect(json(refused).message).toBe(PAYMENT_REQUEST_ALREADY_PAID_MESSAGE);
    }
    expect(await entryCount()).toBe(entriesBefore + 1);
    expect((await balances(jamie.token)).checking).toBe(93);
    expect((await balances(alex.token)).checking).toBe(7);
  });

  it('answers 404 for a request addressed to someone else, the requester included, and for no request at all', async () => {
    const [alex, jamie, sam] = [await createCustomer(ctx), await createCustomer(ctx), await createCustomer(ctx)];
    await fund(ctx, sam.userId, 100);
    const { id } = await ask(alex, jamie, 10);
    for (const [token, url] of [
      [sam.token, `/api/payment-requests/${id}/pay`],
      [sam.token, `/api/payment-requests/${id}/decline`],
      [alex.token, `/api/payment-requests/${id}/pay`],
      [alex.token, `/api/payment-requests/${id}/decline`],
      [jamie.token, `/api/payment-requests/${randomUUID()}/pay`],
      [jamie.token, `/api/payment-requests/${randomUUID()}/decline`],
      [jamie.token, '/api/payment-requests/not-an-id/decline'],
    ] as const) {
      const response = await post(token, url, {}, { 'idempotency-key': randomUUID() });
      expect(response.statusCode, url).toBe(404);
      if (!url.includes('not-an-id')) expect(json(response).message).toBe('Payment request not found');
    }
    expect((await lists(sam.token)).received.total).toBe(0);
    expect((await lists(jamie.token)).received.items[0]).toMatchObject({ id, status: 'pending' });
  });

  it('refuses a payment the account cannot make, and a missing Idempotency-Key', async () => {
    const [alex, jamie] = [await createCustomer(ctx), await createCustomer(ctx)];
    await fund(ctx, jamie.userId, 5);
    const { id } = await ask(alex, jamie, 10);
    const poor = await pay(jamie.token, id, { from: 'checking' });
    expect(poor.statusCode).toBe(400);
    expect(json(poor).message).toBe('Insufficient funds');
    const noKey = await post(jamie.token, `/api/payment-requests/${id}/pay`, { from: 'checking' });
    expect(noKey.statusCode).toBe(400);
    expect(json(noKey).message).toBe('An Idempotency-Key header is required for this request.');
    const badFrom = await pay(jamie.token, id, { from: 'loans' });
    expect(badFrom.statusCode).toBe(400);
    expect(json(badFrom).message).toBe('from must be savings or checking');
    expect((await lists(jamie.token)).received.items[0]).toMatchObject({ status: 'pending' });
  });
});

describe('declining a request', () => {
  it('declines once, tells the requester, and a declined request cannot be paid', async () => {
    const [alex, jamie] = [await createCustomer(ctx), await createCustomer(ctx, { firstName: 'Jamie', lastName: 'Decliner' })];
    await fund(ctx, jamie.userId, 100);
    const { id } = await ask(alex, jamie, 15, 'Lunch');
    const response = await decline(jamie.token, id);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({
      data: expect.objectContaining({
        id,
        direction: 'received',
        status: 'declined',
        answeredAt: expect.any(String),
        entryId: null,
        amount: 15,
        note: 'Lunch',
      }),
      message: 'Payment request declined',
    });
    const entriesBefore = await entryCount();
    const again = await decline(jamie.token, id);
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toBe('This payment request has been declined');
    const payDeclined = await pay(jamie.token, id, { from: 'checking' });
    expect(payDeclined.statusCode).toBe(409);
    expect(json(payDeclined).message).toBe('This payment request has been declined');
    expect(await entryCount()).toBe(entriesBefore);
    expect((await balances(jamie.token)).checking).toBe(100);
    expect((await lists(alex.token)).sent.items[0]).toMatchObject({ id, status: 'declined' });
    await drainJobs(ctx);
    expect((await notifications(alex.token)).find((item) => item.kind === 'payment_request_answered')).toMatchObject({
      title: 'Jamie Decliner declined your request for $15.00',
    });
  });
});

describe('the limit per customer', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ rateLimits: true });
  });
  afterAll(async () => limited?.close());

  it(`allows ${PAYMENT_REQUESTS_PER_HOUR_MAX} requests an hour per customer, then 429; another customer on the same address is not limited`, async () => {
    const [alex, sam] = [await createCustomer(limited), await createCustomer(limited)];
    const ask = (token: string) =>
      limited.app.inject({ method: 'POST', url: '/api/payment-requests', headers: bearer(token), payload: { to: 'someone@example.com', amount: 1 } });
    const statuses: number[] = [];
    for (let index = 0; index < PAYMENT_REQUESTS_PER_HOUR_MAX; index += 1) statuses.push((await ask(alex.token)).statusCode);
    expect(statuses.every((status) => status === 201)).toBe(true);
    const refused = await ask(alex.token);
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe('Too many requests. Please wait a moment and try again.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    const rows = await limited.database.db.selectFrom('payment_requests').select('id').where('requester_id', '=', alex.userId).execute();
    expect(rows).toHaveLength(PAYMENT_REQUESTS_PER_HOUR_MAX);
    // Counted per customer: the next customer from the same address still gets through.
    expect((await ask(sam.token)).statusCode).toBe(201);
  });
});
