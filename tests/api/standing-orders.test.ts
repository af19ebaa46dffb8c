import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIso } from '../../src/shared/dates';
import type { Clock } from '../../src/server/context';
import { sealAll } from '../../src/server/ledger/sealer';
import { verifyLedger } from '../../src/server/ledger/verify';
import { TASKS } from '../../src/server/jobs/registry';
import { paymentsOf } from '../../src/server/standing-orders/repository';
import { REASONS, runStandingOrders, STANDING_ORDER_CATCH_UP_DAYS, STANDING_ORDERS_TASK } from '../../src/server/standing-orders/job';
import { adminToken, bearer, createCustomer, createTestApp, json, lastCode, mailbox, type TestContext, staffCall, fund } from '../support/app';

/** A clock the test moves: the system's until `set` is called. */
function movableClock(): Clock & { set(instant: Date | string): void } {
  let fixed: Date | null = null;
  return {
    now: () => fixed ?? new Date(),
    set(instant) {
      fixed = new Date(instant);
    },
  };
}

const clock = movableClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const key = () => `so-${randomUUID()}`;
const at = (date: string, time = '00:10') => `${date}T${time}:00Z`;

type Customer = Awaited<ReturnType<typeof createCustomer>>;

async function move(target: TestContext, customer: Customer, from: 'savings' | 'checking', dollars: number) {
  const response = await target.app.inject({
    method: 'POST',
    url: '/api/transaction/internal-transfer',
    headers: { ...bearer(customer.token), 'idempotency-key': key() },
    payload: { from, to: from === 'savings' ? 'checking' : 'savings', amount: dollars },
  });
  expect(response.statusCode, response.body).toBe(201);
}

const post = (target: TestContext, customer: Customer, body: object) =>
  target.app.inject({ method: 'POST', url: '/api/standing-orders', headers: { ...bearer(customer.token), 'idempotency-key': key() }, payload: body });

/** The two calls of a mandate: the code is emailed, then the call with it creates the order. */
async function createOrder(target: TestContext, customer: Customer, body: Record<string, unknown>) {
  const first = await post(target, customer, body);
  expect(first.statusCode, first.body).toBe(200);
  expect(json(first).data).toMatchObject({ step: 'code', amount: body.amount });
  const second = await post(target, customer, { ...body, paymentPin: await lastCode(target, customer.email) });
  expect(second.statusCode, second.body).toBe(201);
  expect(json(second).message).toBe('Standing order set up');
  return json(second).data as { id: string; nextRunDate: string; status: string };
}

const list = async (target: TestContext, customer: Customer) =>
  json(await target.app.inject({ method: 'GET', url: '/api/standing-orders', headers: bearer(customer.token) })).data as Array<Record<string, unknown>>;

const balances = async (target: TestContext, customer: Customer) =>
  json(await target.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) })).data.account as { savings: number; checking: number };

const history = async (target: TestContext, customer: Customer) =>
  json(await target.app.inject({ method: 'GET', url: '/api/transaction?pageSize=100', headers: bearer(customer.token) })).data.items as Array<
    Record<string, unknown>
  >;

async function notificationsOf(target: TestContext, customer: Customer) {
  await sealAll(target.database.db);
  return json(await target.app.inject({ method: 'GET', url: '/api/notifications?pageSize=100', headers: bearer(customer.token) })).data.items as Array<{
    kind: string;
    title: string;
    body: string;
    link: string | null;
  }>;
}

/**
 * Runs the job at an instant of the simulated calendar: the job's context gets the test's clock
 * (the app keeps the real one, so the customers' sessions stay alive while the month passes).
 */
async function runAt(target: TestContext, instant: string) {
  clock.set(instant);
  return runStandingOrders({ ...target.context, clock });
}

describe('standing orders: the mandate', () => {
  it('is approved once with an emailed code bound to it, listed with its next run date, and cancelled', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    const startDate = addDays(todayIso(), 3);
    const body = {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 25,
      description: 'Rent share',
      frequency: 'monthly',
      startDate,
      count: 6,
    };
    const first = await post(ctx, payer, body);
    expect(first.statusCode).toBe(200);
    expect(json(first).data).toMatchObject({ step: 'code', amount: 25, payee: `Account ending ${payee.accountNumber.slice(-4)}` });
    const mail = (await mailbox(ctx)).find((entry) => entry.to === payer.email);
    expect(mail?.text).toContain('a standing order of $25.00 from your checking account');
    expect(mail?.text).toContain(`monthly on day ${Number(startDate.slice(8))}, from ${startDate}, 6 payments at most`);
    const code = await lastCode(ctx, payer.email);
    expect(await list(ctx, payer)).toEqual([]);

    // The code is bound to the mandate: another amount, payee, description or schedule finds no code for it.
    for (const changed of [{ amount: 26 }, { description: 'Rent' }, { count: 7 }, { startDate: addDays(startDate, 1) }]) {
      const refused = await post(ctx, payer, { ...body, ...changed, paymentPin: code });
      expect(refused.statusCode).toBe(400);
      expect(json(refused).message).toBe('No IMS code is waiting for this transfer. Please request a new code.');
    }
    const wrong = await post(ctx, payer, { ...body, paymentPin: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toMatch(/^The IMS code is not correct\. \d attempts? left\.$/);
    expect(await list(ctx, payer)).toEqual([]);

    const created = await post(ctx, payer, { ...body, paymentPin: code });
    expect(created.statusCode, created.body).toBe(201);
    const order = json(created).data;
    expect(order).toMatchObject({
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 25,
      description: 'Rent share',
      frequency: 'monthly',
      startDate,
      endDate: null,
      count: 6,
      status: 'active',
      nextRunDate: startDate,
      paidCount: 0,
      lastResult: null,
    });
    // The code worked once.
    expect((await post(ctx, payer, { ...body, paymentPin: code })).statusCode).toBe(400);
    expect((await list(ctx, payer)).map((row) => row.id)).toEqual([order.id]);

    const cancelled = await ctx.app.inject({ method: 'DELETE', url: `/api/standing-orders/${order.id}`, headers: bearer(payer.token) });
    expect(cancelled.statusCode).toBe(200);
    expect(json(cancelled)).toMatchObject({ message: 'Standing order cancelled', data: { id: order.id, status: 'cancelled', nextRunDate: null } });
    expect((await list(ctx, payer))[0]).toMatchObject({ status: 'cancelled', nextRunDate: null });
    // Nothing is ever paid for a cancelled order.
    await runAt(ctx, at(startDate));
    expect(await paymentsOf(ctx.database.db, order.id)).toEqual([]);
  });

  it("to an account number with the payee's name: the step checks the name against the holder, and the list shows the name typed", async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx, { firstName: 'Marta', lastName: 'Kowalska' });
    const body = (name: string) => ({
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber, name },
      amount: 12,
      description: 'Lessons',
      frequency: 'weekly',
      startDate: addDays(todayIso(), 2),
    });
    const ending = payee.accountNumber.slice(-4);
    const close = await post(ctx, payer, body('Marta Kowalski'));
    expect(close.statusCode, close.body).toBe(200);
    expect(json(close).data).toMatchObject({
      payee: `Marta Kowalski (account ending ${ending})`,
      payeeCheck: { result: 'close_match', accountName: 'Marta Kowalska' },
    });
    const other = await post(ctx, payer, body('Jan Nowak'));
    expect(json(other).data.payeeCheck).toEqual({ result: 'no_match' });
    const match = await post(ctx, payer, body('marta kowalska'));
    expect(json(match).data.payeeCheck).toEqual({ result: 'match' });

    // The code approves the name typed with the rest: another name finds no code for it.
    const code = await lastCode(ctx, payer.email);
    const renamed = await post(ctx, payer, { ...body('Jan Nowak'), paymentPin: code });
    expect(renamed.statusCode).toBe(400);
    const created = await post(ctx, payer, { ...body('marta kowalska'), paymentPin: code });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created).data.payee).toBe(`marta kowalska (account ending ${ending})`);
    expect((await list(ctx, payer))[0]).toMatchObject({ payee: `marta kowalska (account ending ${ending})` });
  });

  it('between own accounts needs no code', async () => {
    const customer = await createCustomer(ctx);
    const response = await post(ctx, customer, {
      from: 'checking',
      to: { kind: 'own' },
      amount: 10,
      description: 'Save every week',
      frequency: 'weekly',
      startDate: todayIso(),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(json(response).data).toMatchObject({ payee: 'Your savings account', to: { kind: 'own' }, nextRunDate: todayIso() });
  });

  it("answers 404 for someone else's order or payee, and changes nothing", async () => {
    const owner = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const order = await createOrder(ctx, owner, {
      from: 'checking',
      to: { kind: 'customer', accountNumber: other.accountNumber },
      amount: 5,
      description: 'Lunch',
      frequency: 'weekly',
      startDate: addDays(todayIso(), 1),
    });
    expect(await list(ctx, other)).toEqual([]);
    const stolen = await ctx.app.inject({ method: 'DELETE', url: `/api/standing-orders/${order.id}`, headers: bearer(other.token) });
    expect(stolen.statusCode).toBe(404);
    expect(json(stolen).message).toBe('Standing order not found');
    expect((await list(ctx, owner))[0]).toMatchObject({ id: order.id, status: 'active' });
    const unknown = await ctx.app.inject({ method: 'DELETE', url: `/api/standing-orders/${randomUUID()}`, headers: bearer(owner.token) });
    expect(unknown.statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/standing-orders/not-an-id', headers: bearer(owner.token) })).statusCode).toBe(404);

    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/beneficiaries',
      headers: bearer(owner.token),
      payload: { name: 'Sam Lee', accountNumber: other.accountNumber },
    });
    expect(saved.statusCode).toBe(201);
    const theirPayee = await post(ctx, other, {
      from: 'checking',
      to: { kind: 'payee', payeeId: json(saved).data._id },
      amount: 5,
      description: 'Lunch',
      frequency: 'once',
      startDate: todayIso(),
    });
    expect(theirPayee.statusCode).toBe(404);
    expect(json(theirPayee).message).toBe('Payee not found');
    expect(await list(ctx, other)).toEqual([]);
  });

  it('refuses bad input with 400 and writes nothing (no order, no code)', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const valid = {
      from: 'checking',
      to: { kind: 'customer', accountNumber: other.accountNumber },
      amount: 20,
      description: 'Gym',
      frequency: 'monthly',
      startDate: addDays(todayIso(), 2),
    };
    const mailsBefore = (await mailbox(ctx)).filter((entry) => entry.to === customer.email).length;
    const cases: Array<[object, string]> = [
      [{ ...valid, amount: 0 }, 'Amount must be greater than 0'],
      [{ ...valid, amount: '12.345' }, 'Amount can have at most 2 decimal places'],
      [{ ...valid, from: 'bitcoin' }, 'Please fill all fields'],
      [{ ...valid, to: { kind: 'friend' } }, 'to.kind must be own, payee or customer'],
      [{ ...valid, to: { kind: 'customer' } }, 'Please enter the account number'],
      [{ ...valid, to: { kind: 'customer', accountNumber: '12ab' } }, 'Account number must be 10 digits'],
      [{ ...valid, to: { kind: 'payee' } }, 'Please choose a payee'],
      [{ ...valid, to: { kind: 'customer', accountNumber: other.accountNumber, extra: 1 } }, 'Unrecognized key: "extra"'],
      [{ ...valid, description: '' }, 'Please fill all fields'],
      [{ ...valid, description: 'x'.repeat(141) }, 'Description must be at most 140 characters'],
      [{ ...valid, description: 'Gym\u0000' }, 'Description must not contain control characters'],
      [{ ...valid, frequency: 'daily' }, 'frequency must be once, weekly or monthly'],
      [{ ...valid, startDate: '2026-02-30' }, 'Not a real date'],
      [{ ...valid, startDate: addDays(todayIso(), -1) }, 'The first payment cannot be in the past.'],
      [{ ...valid, startDate: addDays(todayIso(), 400) }, 'The first payment must be within 366 days.'],
      [{ ...valid, endDate: addDays(todayIso(), 1) }, 'The end date must not be before the start date'],
      [{ ...valid, count: 0 }, 'count must be at least 1'],
      [{ ...valid, count: 1.5 }, 'count must be a whole number'],
      [{ ...valid, count: 521 }, 'count must be at most 520'],
      [{ ...valid, frequency: 'once', count: 2 }, 'A one-off payment has no count'],
      [{ ...valid, to: { kind: 'customer', accountNumber: customer.accountNumber } }, 'You cannot transfer to the same account'],
      [{ ...valid, to: { kind: 'customer', accountNumber: '0000000000' } }, 'No account at this bank has that number.'],
      [{ ...valid, paymentPin: '12' }, 'The IMS code is 6 digits'],
    ];
    for (const [body, message] of cases) {
      const response = await post(ctx, customer, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(response).message, JSON.stringify(body)).toBe(message);
    }
    expect(await list(ctx, customer)).toEqual([]);
    expect((await mailbox(ctx)).filter((entry) => entry.to === customer.email)).toHaveLength(mailsBefore);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/standing-orders' })).statusCode).toBe(401);
  });
});

describe('standing orders: the job', () => {
  // Each run settles every due order of the bank: each test gets a bank of its own, so a run's
  // summary counts that test's orders only.
  beforeEach(async () => {
    await ctx.close();
    ctx = await createTestApp();
  });

  it('is a registered background task with a schedule', () => {
    expect(TASKS.find((task) => task.identifier === STANDING_ORDERS_TASK)?.schedule).toBe('*/5 * * * *');
  });

  it('pays a weekly order across a simulated month exactly once per occurrence, through an insufficient-funds day and a restart', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, payer.userId, 1000);
    const start = addDays(todayIso(), 1);
    const order = await createOrder(ctx, payer, {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 100,
      description: 'Weekly allowance',
      frequency: 'weekly',
      startDate: start,
    });
    const dues = [0, 7, 14, 21, 28].map((days) => addDays(start, days));

    // Before its date nothing is paid.
    await runAt(ctx, at(addDays(start, -1), '23:50'));
    expect(await paymentsOf(ctx.database.db, order.id)).toEqual([]);

    // Days 0-14 on the first process, twice a day (just after midnight and after the retry hour).
    let app: TestContext = ctx;
    for (let day = 0; day <= 14; day += 1) {
      const date = addDays(start, day);
      if (date === dues[1]) {
        // The insufficient-funds day: the money is in savings at midnight...
        await move(app, payer, 'checking', (await balances(app, payer)).checking - 50);
        expect(await runAt(app, at(date, '00:10'))).toMatchObject({ paid: 0, retrying: 1 });
        expect((await list(app, payer))[0]).toMatchObject({
          nextRunDate: date,
          lastResult: { dueDate: date, outcome: 'retrying', reason: 'Insufficient funds. It will be tried again later today.' },
        });
        // ...runs before the retry hour change nothing...
        expect(await runAt(app, at(date, '09:00'))).toEqual({ paid: 0, skipped: 0, retrying: 0 });
        // ...the customer moves it back at noon, and the retry pays.
        await move(app, payer, 'savings', (await balances(app, payer)).savings);
        expect(await runAt(app, at(date, '16:10'))).toMatchObject({ paid: 1 });
        continue;
      }
      await runAt(app, at(date, '00:10'));
      await runAt(app, at(date, '16:10'));
    }
    expect((await paymentsOf(ctx.database.db, order.id)).map((row) => [row.due_date, row.outcome])).toEqual(dues.slice(0, 3).map((due) => [due, 'paid']));

    // A restart: this process stops on day 14; nothing runs for days 15-25 (day 21's payment is
    // missed meanwhile); a new process on the same database starts on day 26, and runs the job
    // twice at once (a second runner) and again.
    await app.close();
    app = await createTestApp({ databaseUrl: ctx.databaseUrl, seedDemo: false });
    const restartedAt = addDays(start, 26);
    expect(addDays(dues[3]!, STANDING_ORDER_CATCH_UP_DAYS) >= restartedAt).toBe(true);
    clock.set(at(restartedAt, '00:10'));
    const [one, two] = await Promise.all([runStandingOrders({ ...app.context, clock }), runStandingOrders({ ...app.context, clock })]);
    expect(one.paid + two.paid).toBe(1);
    for (let day = 26; day <= 31; day += 1) {
      await runAt(app, at(addDays(start, day), '00:10'));
      await runAt(app, at(addDays(start, day), '00:10'));
      await runAt(app, at(addDays(start, day), '16:10'));
    }

    const payments = await paymentsOf(app.database.db, order.id);
    expect(payments.map((row) => [row.due_date, row.outcome])).toEqual(dues.map((due) => [due, 'paid']));
    expect(new Set(payments.map((row) => row.entry_id)).size).toBe(5);
    // Each payment: one debit line for the payer and one credit for the payee, labelled as a standing order.
    const paid = (await history(app, payer)).filter((line) => line.kind === 'standing_order');
    expect(paid).toHaveLength(5);
    expect(paid.every((line) => line.transactionType === 'debit' && line.amount === 100 && line.description === 'Weekly allowance')).toBe(true);
    const received = (await history(app, payee)).filter((line) => line.kind === 'standing_order');
    expect(received).toHaveLength(5);
    expect(received[0]).toMatchObject({ transactionType: 'credit', amount: 100 });
    expect(await balances(app, payer)).toMatchObject({ savings: 0, checking: 500 });
    expect((await balances(app, payee)).checking).toBe(500);
    // One idempotency record per occurrence, each naming its entry.
    const keys = await app.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'entry_id'])
      .where('user_id', '=', payer.userId)
      .where('key', 'like', `standing-order:${order.id}:%`)
      .orderBy('key')
      .execute();
    expect(keys.map((row) => row.key)).toEqual(dues.map((due) => `standing-order:${order.id}:${due}`));
    expect((await list(app, payer))[0]).toMatchObject({ paidCount: 5, nextRunDate: addDays(start, 35), lastResult: { dueDate: dues[4], outcome: 'paid' } });
    await sealAll(app.database.db);
    expect(await verifyLedger(app.database.db)).toMatchObject({ ok: true });
    ctx = app;
  });

  it('to a saved payee at this bank: the step checks the saved name against the holder, and each payment records what the payer was told', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx, { firstName: 'Marta', lastName: 'Kowalska' });
    const stranger = await createCustomer(ctx, { firstName: 'Jan', lastName: 'Nowak' });
    await fund(ctx, payer.userId, 100);
    const savedPayee = async (name: string, accountNumber: string) => {
      const saved = await ctx.app.inject({ method: 'POST', url: '/api/beneficiaries', headers: bearer(payer.token), payload: { name, accountNumber } });
      expect(saved.statusCode, saved.body).toBe(201);
      return json(saved).data._id as string;
    };
    const start = addDays(todayIso(), 1);
    const body = (payeeId: string) => ({
      from: 'checking',
      to: { kind: 'payee', payeeId },
      amount: 10,
      description: 'Lessons',
      frequency: 'once',
      startDate: start,
    });

    // A saved name close to the holder's: the step says whose account it is; one that is not, says so without naming anyone.
    const close = await savedPayee('Marta Kowalski', payee.accountNumber);
    const step = await post(ctx, payer, body(close));
    expect(step.statusCode, step.body).toBe(200);
    expect(json(step).data).toMatchObject({ step: 'code', payeeCheck: { result: 'close_match', accountName: 'Marta Kowalska' } });
    const wrong = await post(ctx, payer, body(await savedPayee('Marta Kowalska', stranger.accountNumber)));
    expect(json(wrong).data.payeeCheck).toEqual({ result: 'no_match' });

    // Approved anyway (a warning, never a refusal): the payment carries the check with it.
    const order = await createOrder(ctx, payer, body(close));
    expect(await runAt(ctx, at(start))).toMatchObject({ paid: 1 });
    const [payment] = await paymentsOf(ctx.database.db, order.id);
    expect(payment).toMatchObject({ outcome: 'paid' });
    const entry = await ctx.database.db.selectFrom('journal_entries').select('details').where('id', '=', payment!.entry_id!).executeTakeFirstOrThrow();
    expect(entry.details).toMatchObject({ standingOrder: { id: order.id }, payee: { nameCheck: 'close_match' } });
    expect((await balances(ctx, payee)).checking).toBe(10);
  });

  it('skips and notifies an occurrence still short of money at the retry, and pays nothing', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, payer.userId, 30);
    const date = addDays(todayIso(), 2);
    const order = await createOrder(ctx, payer, {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 40,
      description: 'Concert tickets',
      frequency: 'once',
      startDate: date,
    });
    expect(await runAt(ctx, at(date, '00:10'))).toMatchObject({ retrying: 1 });
    expect(await runAt(ctx, at(date, '16:10'))).toMatchObject({ skipped: 1 });
    expect(await runAt(ctx, at(date, '20:00'))).toEqual({ paid: 0, skipped: 0, retrying: 0 });
    expect(await paymentsOf(ctx.database.db, order.id)).toMatchObject([{ due_date: date, outcome: 'skipped', reason: 'Insufficient funds.', attempts: 2 }]);
    expect((await list(ctx, payer))[0]).toMatchObject({ status: 'finished', nextRunDate: null, paidCount: 0, lastResult: { outcome: 'skipped' } });
    expect(await balances(ctx, payer)).toMatchObject({ savings: 0, checking: 30 });
    const failed = (await notificationsOf(ctx, payer)).filter((item) => item.kind === 'standing_order_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ title: `Standing order to Account ending ${payee.accountNumber.slice(-4)} not paid`, link: '/account/standing-orders' });
    expect(failed[0]!.body).toContain('$40.00');
    expect(failed[0]!.body).toContain('Insufficient funds.');
    // And by email (the kind's default).
    expect((await mailbox(ctx)).some((mail) => mail.to === payer.email && mail.subject.includes('Standing order'))).toBe(true);
  });

  it('after downtime pays the occurrences within the catch-up limit and skips and notifies older ones', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, payer.userId, 1000);
    const start = addDays(todayIso(), 1);
    const order = await createOrder(ctx, payer, {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 10,
      description: 'Weekly',
      frequency: 'weekly',
      startDate: start,
      count: 4,
    });
    // Nothing ran for three weeks: days 0, 7 and 14 are due; only day 14 is within the limit.
    const restart = addDays(start, 14 + STANDING_ORDER_CATCH_UP_DAYS);
    expect(await runAt(ctx, at(restart, '00:10'))).toEqual({ paid: 1, skipped: 2, retrying: 0 });
    expect((await paymentsOf(ctx.database.db, order.id)).map((row) => [row.due_date, row.outcome, row.reason])).toEqual([
      [start, 'skipped', REASONS.missed],
      [addDays(start, 7), 'skipped', REASONS.missed],
      [addDays(start, 14), 'paid', null],
    ]);
    const failed = (await notificationsOf(ctx, payer)).filter((item) => item.kind === 'standing_order_failed');
    expect(failed).toHaveLength(2);
    expect((await list(ctx, payer))[0]).toMatchObject({ status: 'active', nextRunDate: addDays(start, 21), paidCount: 1 });
    expect(await balances(ctx, payer)).toMatchObject({ checking: 990 });
    // The fourth and last.
    await runAt(ctx, at(addDays(start, 21), '00:10'));
    expect((await list(ctx, payer))[0]).toMatchObject({ status: 'finished', nextRunDate: null, paidCount: 2 });
  });

  it("skips and notifies a blocked payer's occurrences", async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, payer.userId, 100);
    const date = addDays(todayIso(), 1);
    const order = await createOrder(ctx, payer, {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 10,
      description: 'Blocked',
      frequency: 'weekly',
      startDate: date,
    });
    await ctx.database.db.updateTable('users').set({ is_blocked: true }).where('id', '=', payer.userId).execute();
    expect(await runAt(ctx, at(date, '00:10'))).toEqual({ paid: 0, skipped: 1, retrying: 0 });
    expect(await paymentsOf(ctx.database.db, order.id)).toMatchObject([{ outcome: 'skipped', reason: REASONS.blocked }]);
    expect((await notificationsOf(ctx, payer)).filter((item) => item.kind === 'standing_order_failed')).toHaveLength(1);
    expect(await balances(ctx, payer)).toMatchObject({ checking: 100 });
  });

  it('pays a monthly order of the 31st on the last day of shorter months, by the bank calendar of BANK_TIMEZONE', async () => {
    const zoned = await createTestApp({ env: { BANK_TIMEZONE: 'America/New_York' } });
    try {
      const zonedAdmin = await adminToken(zoned);
      const payer = await createCustomer(zoned);
      await staffCall(zoned, {
        method: 'POST',
        url: `/api/transaction/admin/${payer.userId}`,
        headers: { ...bearer(zonedAdmin), 'idempotency-key': key() },
        payload: { amount: 500, transactionType: 'credit', date: todayIso(), description: 'Funding', reason: 'test setup' },
      });
      // The next 31st within the start limit.
      let start = addDays(todayIso(), 1);
      while (start.slice(8) !== '31') start = addDays(start, 1);
      const response = await zoned.app.inject({
        method: 'POST',
        url: '/api/standing-orders',
        headers: { ...bearer(payer.token), 'idempotency-key': key() },
        payload: { from: 'checking', to: { kind: 'own' }, amount: 10, description: 'Month end', frequency: 'monthly', startDate: start, count: 3 },
      });
      expect(response.statusCode, response.body).toBe(201);
      const id = json(response).data.id as string;
      // 03:00 UTC on the 31st is still the 30th in New York: not yet.
      expect(await runAt(zoned, `${start}T03:00:00Z`)).toMatchObject({ paid: 0 });
      expect(await runAt(zoned, `${start}T05:10:00Z`)).toMatchObject({ paid: 1 });
      // Walk the next three months day by day at 05:10 UTC (00:10 or 01:10 in New York).
      for (let day = 1; day <= 75; day += 1) await runAt(zoned, `${addDays(start, day)}T05:10:00Z`);
      const dues = (await paymentsOf(zoned.database.db, id)).map((row) => row.due_date);
      const monthEnd = (offset: number) => {
        const [year, month] = start.split('-').map(Number) as [number, number];
        const last = new Date(Date.UTC(year, month + offset, 0));
        return last.toISOString().slice(0, 10);
      };
      expect(dues).toEqual([start, monthEnd(1), monthEnd(2)]);
    } finally {
      await zoned.close();
    }
  });
});
