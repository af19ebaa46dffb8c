import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { NOTIFICATION_DEFAULTS, NOTIFICATION_KINDS } from '../../src/shared/contracts/notifications';
import { sql } from 'kysely';
import { inTransaction } from '../../src/server/db/transaction';
import { cronItems } from '../../src/server/jobs/registry';
import { LEDGER_NOTIFY_QUEUE, LEDGER_NOTIFY_TASK, notifyLedgerEntries, wakeLedgerNotifier } from '../../src/server/notifications/ledger-notifier';
import { notify } from '../../src/server/notifications/service';
import { addJob } from '../../src/server/queues/repository';
import {
  adminToken,
  bearer,
  createCustomer,
  createTestApp,
  drainJobs,
  json,
  lastCode,
  mailbox,
  signIn,
  type TestContext,
  staffCall,
  staffEntry,
} from '../support/app';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;

let keySeq = 0;
const key = () => `notify-${Date.now()}-${keySeq++}`;

const get = (token: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (token: string, url: string, payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  staffCall(ctx, { method: 'POST', url, headers: { ...bearer(token), ...headers }, payload });
const put = (token: string, url: string, payload: unknown) => ctx.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });

const list = async (token: string, query = '') => {
  const response = await get(token, `/api/notifications${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return json(response).data as {
    items: Array<{ id: string; kind: string; title: string; body: string; link: string | null; readAt: string | null }>;
    total: number;
    unread: number;
  };
};
const preferences = async (token: string) => json(await get(token, '/api/notifications/preferences')).data;
const mailsTo = async (email: string) => (await mailbox(ctx)).filter((mail) => mail.to === email);

/** A transfer between two customers at this bank: the code step, then the transfer with the mailed code. */
async function pay(from: Customer, to: Customer, dollars: number, description = 'Dinner') {
  const body = { from: from.accountNumber, amount: dollars, accountType: 'checking', accountNumber: to.accountNumber, to: 'Payee', description };
  const step = await post(from.token, '/api/transaction/transfer', body, { 'idempotency-key': key() });
  expect(step.statusCode, step.body).toBe(200);
  const paid = await post(from.token, '/api/transaction/transfer', { ...body, paymentPin: await lastCode(ctx, from.email) }, { 'idempotency-key': key() });
  expect(paid.statusCode, paid.body).toBe(201);
  return json(paid).data as { entryId: string };
}

async function internal(customer: Customer, dollars: number, from: 'checking' | 'savings' = 'checking') {
  const response = await post(
    customer.token,
    '/api/transaction/internal-transfer',
    { from, to: from === 'checking' ? 'savings' : 'checking', amount: dollars },
    { 'idempotency-key': key() },
  );
  expect(response.statusCode, response.body).toBe(201);
}

const fullName = async (customer: Customer) => {
  const me = json(await get(customer.token, '/api/user/me')).data;
  return `${me.firstName} ${me.lastName}`;
};

describe('money notifications from the ledger', () => {
  it('tells the payee that money arrived, in the app only by default, and tells the payer nothing below their amount', async () => {
    const payer = await createCustomer(ctx, { firstName: 'Priya', lastName: 'Shah' });
    const payee = await createCustomer(ctx);
    await staffEntry(ctx, payer.userId, 'credit', 300);
    await drainJobs(ctx);
    const payerBefore = await list(payer.token);

    await pay(payer, payee, 25.5, 'Concert tickets');
    await drainJobs(ctx);

    const received = await list(payee.token);
    expect(received).toMatchObject({ total: 1, unread: 1 });
    expect(received.items[0]).toMatchObject({
      kind: 'money_received',
      title: '$25.50 received',
      link: '/account/transactions',
      readAt: null,
    });
    expect(received.items[0]?.body).toBe('$25.50 arrived in your checking account from Priya Shah. Concert tickets');
    // money_received is in the app only by default: no mail about it.
    expect((await mailsTo(payee.email)).some((mail) => mail.subject.includes('received'))).toBe(false);
    // $25.50 is below the payer's default amount for "money sent above" ($500): nothing new for them.
    expect((await list(payer.token)).total).toBe(payerBefore.total);
  });

  it('tells a customer about a staff credit ("from the bank") but not about their own opening or moves between their accounts', async () => {
    const customer = await createCustomer(ctx);
    await staffEntry(ctx, customer.userId, 'credit', 80, { description: 'Fee refund' });
    await internal(customer, 20);
    await drainJobs(ctx);
    const { items } = await list(customer.token);
    expect(items.map((item) => item.kind)).toEqual(['money_received']);
    expect(items[0]?.body).toBe('$80.00 arrived in your checking account from the bank. Fee refund');
  });

  it('tells the payer about a payment above their amount, in the app and by email', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await staffEntry(ctx, payer.userId, 'credit', 1000);
    const saved = await put(payer.token, '/api/notifications/preferences', { money_sent_above: { inApp: true, email: true, amount: '100' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved).data.money_sent_above).toEqual({ inApp: true, email: true, amount: 100, locked: false });

    await pay(payer, payee, 100); // not above $100
    await pay(payer, payee, 100.01);
    await drainJobs(ctx);
    const sent = (await list(payer.token)).items.filter((item) => item.kind === 'money_sent_above');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.title).toBe('$100.01 sent');
    expect(sent[0]?.body).toContain('You asked to hear about payments above $100.00.');
    const mails = (await mailsTo(payer.email)).filter((mail) => mail.subject === 'Ledgerline Bank: $100.01 sent');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('/account/transactions');
    expect(mails[0]?.text).toContain('/account/notifications');
  });

  it('tells a customer once when a balance drops below their amount, not again while it stays below', async () => {
    const customer = await createCustomer(ctx);
    await staffEntry(ctx, customer.userId, 'credit', 100);
    expect((await put(customer.token, '/api/notifications/preferences', { balance_below: { inApp: true, email: false, amount: 50 } })).statusCode).toBe(200);
    await internal(customer, 40); // checking 100 -> 60: still above
    await internal(customer, 15); // 60 -> 45: crosses
    await internal(customer, 5); // 45 -> 40: already below
    await drainJobs(ctx);
    const below = (await list(customer.token)).items.filter((item) => item.kind === 'balance_below');
    expect(below).toHaveLength(1);
    expect(below[0]).toMatchObject({ title: 'Your checking balance is below $50.00', body: 'Your checking account balance is now $45.00.' });
  });

  it('notifies one posting once even when the job runs twice, or reads the chain again after a crash', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await staffEntry(ctx, payer.userId, 'credit', 700);
    await put(payee.token, '/api/notifications/preferences', { money_received: { inApp: true, email: true } });
    await drainJobs(ctx);
    await pay(payer, payee, 12);

    // Two runs of the job queued at once, then drained: the second finds nothing new.
    await addJob(ctx.database.db, LEDGER_NOTIFY_TASK, {});
    await addJob(ctx.database.db, LEDGER_NOTIFY_TASK, {});
    await drainJobs(ctx);
    expect(await notifyLedgerEntries(ctx.context)).toBe(0);

    // At least once: a run that read the same entries again (its cursor lost, as after a crash
    // before its commit) writes no second notification and queues no second mail.
    const { position } = await ctx.database.db.selectFrom('notification_cursors').select('position').where('name', '=', 'ledger').executeTakeFirstOrThrow();
    await ctx.database.db.updateTable('notification_cursors').set({ position: 0 }).where('name', '=', 'ledger').execute();
    expect(await notifyLedgerEntries(ctx.context, 7)).toBe(Number(position));
    await drainJobs(ctx);

    const received = (await list(payee.token)).items.filter((item) => item.kind === 'money_received' && item.title === '$12.00 received');
    expect(received).toHaveLength(1);
    expect((await mailsTo(payee.email)).filter((mail) => mail.subject === 'Ledgerline Bank: $12.00 received')).toHaveLength(1);
  });

  it("queues its runs, woken or scheduled, in one named queue: they run one after another, none holding a worker while it waits on another's cursor", async () => {
    const queued = await inTransaction(ctx.database.db, async (trx) => {
      await wakeLedgerNotifier({ db: trx });
      const rows = await sql<{ queue_name: string | null }>`select queue_name from graphile_worker.jobs where task_identifier = ${LEDGER_NOTIFY_TASK}`.execute(
        trx,
      );
      throw Object.assign(new Error('rolled back'), { rows: rows.rows });
    }).catch((error: { rows?: Array<{ queue_name: string | null }> }) => error.rows);
    expect(queued).toEqual([{ queue_name: LEDGER_NOTIFY_QUEUE }]);
    const scheduled = cronItems().find((item) => item.task === LEDGER_NOTIFY_TASK);
    expect(scheduled?.options.queueName).toBe(LEDGER_NOTIFY_QUEUE);
  });

  it('respects the preferences: email off means no mail but the item in the app; in-app off means the mail only', async () => {
    const payer = await createCustomer(ctx);
    const quiet = await createCustomer(ctx);
    const mailOnly = await createCustomer(ctx);
    await staffEntry(ctx, payer.userId, 'credit', 1000);
    expect(
      (
        await put(quiet.token, '/api/notifications/preferences', {
          money_received: { inApp: true, email: false },
          payment_request_received: { inApp: true, email: false },
        })
      ).statusCode,
    ).toBe(200);
    expect((await put(mailOnly.token, '/api/notifications/preferences', { money_received: { inApp: false, email: true } })).statusCode).toBe(200);
    await drainJobs(ctx);
    const lastMailBefore = (await mailbox(ctx))[0]?.id ?? 0;
    await pay(payer, quiet, 31);
    await pay(payer, mailOnly, 32);
    await drainJobs(ctx);

    expect((await list(quiet.token)).items.map((item) => item.title)).toEqual(['$31.00 received']);
    // Nothing in the outbox for them since the payment, not even waiting to be sent.
    const queued = await ctx.database.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', quiet.email)
      .where('id', '>', lastMailBefore)
      .execute();
    expect(queued).toEqual([]);

    expect(await list(mailOnly.token)).toMatchObject({ total: 0, unread: 0, items: [] });
    const mailed = (await mailsTo(mailOnly.email)).filter((mail) => mail.id > lastMailBefore);
    expect(mailed.map((mail) => mail.subject)).toEqual(['Ledgerline Bank: $32.00 received']);

    // Both channels off: nothing at all.
    await put(quiet.token, '/api/notifications/preferences', { money_received: { inApp: false, email: false } });
    await pay(payer, quiet, 33);
    await drainJobs(ctx);
    expect((await list(quiet.token)).total).toBe(1);
  });
});

describe('the kinds whose producers come later, through notify() directly', () => {
  it('standing order failed, statement ready and payment request received: in the app and by email as the defaults say, once per key', async () => {
    const customer = await createCustomer(ctx);
    const name = await fullName(customer);
    const facts = [
      {
        kind: 'standing_order_failed',
        userId: customer.userId,
        key: 'so-1:2026-12-01',
        amountCents: 5000,
        payee: 'Landlord',
        reason: 'Insufficient funds',
        dueDate: '2026-12-01',
      },
      { kind: 'statement_ready', userId: customer.userId, key: '2026-11:checking', month: '2026-11', account: 'checking' },
      { kind: 'payment_request_received', userId: customer.userId, key: 'request-1', fromName: 'Alex Morgan', amountCents: 2550, note: 'Pizza' },
    ] as const;
    for (const fact of facts) expect(await notify(ctx.context, fact)).toMatchObject({ inApp: true, emailed: NOTIFICATION_DEFAULTS[fact.kind].email });
    for (const fact of facts) expect(await notify(ctx.context, fact)).toBeNull();

    const { items, unread } = await list(customer.token);
    expect(unread).toBe(3);
    expect(items.map((item) => [item.kind, item.title])).toEqual([
      ['payment_request_received', 'Alex Morgan asks you for $25.50'],
      ['statement_ready', 'Your November 2026 statement is ready'],
      ['standing_order_failed', 'Standing order to Landlord not paid'],
    ]);
    expect(items[2]?.body).toBe('Your standing order of $50.00 to Landlord due on Dec 1, 2026 was not paid: Insufficient funds');
    const subjects = (await mailsTo(customer.email)).map((mail) => mail.subject);
    expect(subjects).toContain('Ledgerline Bank: Standing order to Landlord not paid');
    expect(subjects).toContain('Ledgerline Bank: Alex Morgan asks you for $25.50');
    expect(subjects).not.toContain('Ledgerline Bank: Your November 2026 statement is ready');
    expect((await mailsTo(customer.email)).find((mail) => mail.subject.includes('Landlord'))?.text).toContain(`Hello ${name.split(' ')[0]}`);
  });

  it('writes nothing when the caller rolls back, and nothing for a closed customer', async () => {
    const customer = await createCustomer(ctx);
    await ctx.database.db
      .transaction()
      .execute(async (trx) => {
        await notify(
          { ...ctx.context, db: trx },
          { kind: 'statement_ready', userId: customer.userId, key: 'rolled-back', month: '2026-10', account: 'savings' },
        );
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect((await list(customer.token)).total).toBe(0);

    const closed = await createCustomer(ctx);
    await ctx.database.db.updateTable('users').set({ closed_at: new Date() }).where('id', '=', closed.userId).execute();
    expect(await notify(ctx.context, { kind: 'statement_ready', userId: closed.userId, key: 'closed', month: '2026-10', account: 'savings' })).toBeNull();
  });
});

describe('what the database holds to (migration 65)', () => {
  const insert = (client: pg.Client, userId: string, kind: string, dedupeKey = `db-${keySeq++}`) =>
    client.query(
      `insert into notifications (id, user_id, kind, dedupe_key, title, body, link, in_app, emailed, created_at)
       values (gen_random_uuid(), $1, $2, $3, 'Title', 'Body', null, true, false, now())`,
      [userId, kind, dedupeKey],
    );

  it('every kind the app writes and no other; a customer who exists, and the notification stays theirs', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      for (const kind of NOTIFICATION_KINDS) await insert(client, customer.userId, kind);
      await client.query('rollback');
      await expect(insert(client, customer.userId, 'money_receivedx')).rejects.toMatchObject({ code: '23514' });
      await expect(insert(client, customer.userId, 'Money_received')).rejects.toMatchObject({ code: '23514' });
      await expect(insert(client, '00000000-0000-4000-8000-000000000001', 'money_received')).rejects.toMatchObject({
        code: '23503',
        message: expect.stringMatching(/user .* does not exist/),
      });
      // One unknown customer among many rows refuses the whole statement.
      await expect(
        client.query(
          `insert into notifications (id, user_id, kind, dedupe_key, title, body, in_app, emailed, created_at)
           select gen_random_uuid(), person, 'statement_ready', 'many-' || ordinal, 'Title', 'Body', true, false, now()
           from unnest($1::uuid[]) with ordinality as people(person, ordinal)`,
          [[customer.userId, '00000000-0000-4000-8000-000000000002', other.userId]],
        ),
      ).rejects.toMatchObject({ code: '23503' });
      expect((await list(customer.token)).total).toBe(0);

      await insert(client, customer.userId, 'statement_ready', 'stays');
      await expect(
        client.query("update notifications set user_id = $1 where user_id = $2 and dedupe_key = 'stays'", [other.userId, customer.userId]),
      ).rejects.toMatchObject({ code: '23503' });
      await client.query("update notifications set read_at = now() where user_id = $1 and dedupe_key = 'stays'", [customer.userId]);
      expect((await list(customer.token)).items.map((item) => item.readAt === null)).toEqual([false]);
      expect((await list(other.token)).total).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('deleting a customer deletes their notifications, and waits for one being written', async () => {
    const customer = await createCustomer(ctx);
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    await other.connect();
    try {
      await insert(client, customer.userId, 'statement_ready');
      // A notification written in an open transaction holds its customer as a foreign key does.
      await client.query('begin');
      await insert(client, customer.userId, 'new_device_sign_in');
      await other.query("set lock_timeout = '300ms'");
      await expect(other.query('delete from users where id = $1', [customer.userId])).rejects.toMatchObject({ code: '55P03' });
      await client.query('commit');

      const deleted = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await client.query('select count(*)::int as n from users where id = $1', [customer.userId])).rows[0].n).toBe(0);
      expect((await client.query('select count(*)::int as n from notifications where user_id = $1', [customer.userId])).rows[0].n).toBe(0);
    } finally {
      await client.end();
      await other.end();
    }
  });
});

describe('a sign-in from a new device', () => {
  it('adds an item in the app besides the email, and no preference switches either off', async () => {
    const customer = await createCustomer(ctx);
    const before = await preferences(customer.token);
    expect(before.new_device_sign_in).toEqual({ inApp: true, email: true, amount: null, locked: true });

    const off = await put(customer.token, '/api/notifications/preferences', { new_device_sign_in: { inApp: true, email: false } });
    expect(off.statusCode).toBe(400);
    expect(json(off).message).toBe('The new-device sign-in alert cannot be switched off');
    expect((await put(customer.token, '/api/notifications/preferences', { new_device_sign_in: { inApp: false, email: true } })).statusCode).toBe(400);
    expect(await preferences(customer.token)).toEqual(before);

    // A sign-in without the device cookie is a new device.
    await signIn(ctx, customer.email, customer.password);
    await drainJobs(ctx);
    const { items } = await list(customer.token);
    expect(items.map((item) => item.kind)).toEqual(['new_device_sign_in']);
    expect(items[0]).toMatchObject({ link: '/account/security' });
    expect(items[0]?.title).toMatch(/^New sign-in from /);
    expect((await mailsTo(customer.email)).filter((mail) => mail.subject.includes('new sign-in from'))).toHaveLength(1);
  });
});

describe('GET /api/notifications, reading them', () => {
  async function withNotifications(count: number): Promise<Customer> {
    const customer = await createCustomer(ctx);
    for (let index = 1; index <= count; index += 1) {
      const clock = { now: () => new Date(Date.UTC(2026, 10, index, 12)) };
      const month = `2025-${String(index).padStart(2, '0')}`;
      await notify({ ...ctx.context, clock }, { kind: 'statement_ready', userId: customer.userId, key: `month-${index}`, month, account: 'checking' });
    }
    return customer;
  }

  it('pages newest first, filters the unread ones, and counts down as items are read', async () => {
    const customer = await withNotifications(5);
    const page1 = await list(customer.token, '?pageSize=2');
    expect(page1).toMatchObject({ total: 5, unread: 5, page: 1, pageSize: 2 });
    expect(page1.items.map((item) => item.title)).toEqual(['Your May 2025 statement is ready', 'Your April 2025 statement is ready']);
    const page3 = await list(customer.token, '?pageSize=2&page=3');
    expect(page3.items.map((item) => item.title)).toEqual(['Your January 2025 statement is ready']);

    const first = page1.items[0]!;
    const read = await post(customer.token, `/api/notifications/${first.id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(json(read).data).toMatchObject({ id: first.id, readAt: expect.any(String) });
    // Reading it again keeps the first time.
    expect(json(await post(customer.token, `/api/notifications/${first.id}/read`)).data.readAt).toBe(json(read).data.readAt);

    const unread = await list(customer.token, '?unread=true');
    expect(unread).toMatchObject({ total: 4, unread: 4 });
    expect(unread.items.some((item) => item.id === first.id)).toBe(false);
    expect(await list(customer.token, '?unread=false')).toMatchObject({ total: 5, unread: 4 });

    const all = await post(customer.token, '/api/notifications/read-all');
    expect(all.statusCode).toBe(200);
    expect(json(all)).toEqual({ data: { updated: 4, unread: 0 }, message: 'All notifications marked as read' });
    expect(await list(customer.token)).toMatchObject({ total: 5, unread: 0 });
    expect(json(await post(customer.token, '/api/notifications/read-all')).data).toEqual({ updated: 0, unread: 0 });
  });

  it("answers 404 for someone else's notification and a malformed id, and leaves it unread", async () => {
    const owner = await withNotifications(1);
    const other = await createCustomer(ctx);
    const id = (await list(owner.token)).items[0]!.id;
    const stolen = await post(other.token, `/api/notifications/${id}/read`);
    expect(stolen.statusCode).toBe(404);
    expect(json(stolen)).toMatchObject({ message: 'Notification not found', code: 'not_found' });
    expect((await post(other.token, '/api/notifications/not-an-id/read')).statusCode).toBe(404);
    expect((await post(other.token, '/api/notifications/00000000-0000-7000-8000-000000000000/read')).statusCode).toBe(404);
    // Marking all read touches only one's own.
    await post(other.token, '/api/notifications/read-all');
    expect(await list(owner.token)).toMatchObject({ unread: 1 });
    expect(await list(other.token)).toMatchObject({ total: 0, items: [] });
  });

  it('refuses bad queries, signed-out callers and staff', async () => {
    const customer = await withNotifications(1);
    for (const query of ['?unread=yes', '?page=0', '?pageSize=101', '?page=abc']) {
      const response = await get(customer.token, `/api/notifications${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(json(response).code).toBe('validation');
    }
    expect(json(await get(customer.token, '/api/notifications?unread=yes')).message).toBe('unread must be true or false');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/notifications/read-all' })).statusCode).toBe(401);
    expect((await get(admin, '/api/notifications')).statusCode).toBe(403);
    expect((await get(admin, '/api/notifications/preferences')).statusCode).toBe(403);
    expect(await list(customer.token)).toMatchObject({ unread: 1 });
  });
});

describe('GET and PUT /api/notifications/preferences', () => {
  it('answers the defaults for every kind, saves the kinds sent and keeps the others', async () => {
    const customer = await createCustomer(ctx);
    const defaults = await preferences(customer.token);
    expect(Object.keys(defaults)).toEqual([...NOTIFICATION_KINDS]);
    expect(defaults.money_received).toEqual({ inApp: true, email: false, amount: null, locked: false });
    expect(defaults.money_sent_above).toEqual({ inApp: true, email: true, amount: 500, locked: false });
    expect(defaults.balance_below).toEqual({ inApp: true, email: false, amount: 100, locked: false });

    const saved = await put(customer.token, '/api/notifications/preferences', {
      balance_below: { inApp: false, email: true, amount: '250.75' },
      statement_ready: { inApp: false, email: true },
      new_device_sign_in: { inApp: true, email: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved).message).toBe('Notification preferences saved');
    const after = await preferences(customer.token);
    expect(after).toEqual(json(saved).data);
    expect(after.balance_below).toEqual({ inApp: false, email: true, amount: 250.75, locked: false });
    expect(after.statement_ready).toEqual({ inApp: false, email: true, amount: null, locked: false });
    expect(after.money_received).toEqual(defaults.money_received);

    // Another customer's choices are their own.
    const other = await createCustomer(ctx);
    expect(await preferences(other.token)).toEqual(defaults);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const customer = await createCustomer(ctx);
    const before = await preferences(customer.token);
    const cases: Array<[unknown, string]> = [
      [{ money_recieved: { inApp: true, email: true } }, 'Unrecognized key: "money_recieved"'],
      [{ money_received: { inApp: 'yes', email: true } }, 'inApp must be true or false'],
      [{ money_received: { inApp: true } }, 'email must be true or false'],
      [{ money_received: { inApp: true, email: true, amount: 5 } }, 'Unrecognized key: "amount"'],
      [{ balance_below: { inApp: true, email: true } }, 'Please enter an amount'],
      [{ balance_below: { inApp: true, email: true, amount: 0 } }, 'Amount must be greater than 0'],
      [{ balance_below: { inApp: true, email: true, amount: '12.345' } }, 'Amount can have at most 2 decimal places'],
      [{ money_sent_above: { inApp: true, email: true, amount: 100_000_000 } }, 'Amount must be at most $10,000,000.00'],
      [{ money_sent_above: { inApp: true, email: true, amount: '99999999999999' } }, 'Amount must be at most $10,000,000.00'],
      [{ money_received: { inApp: false, email: false }, balance_below: { inApp: true, email: true, amount: -1 } }, 'Amount must be greater than 0'],
    ];
    for (const [body, message] of cases) {
      const response = await put(customer.token, '/api/notifications/preferences', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(response).message, JSON.stringify(body)).toBe(message);
    }
    expect((await put(customer.token, '/api/notifications/preferences', [])).statusCode).toBe(400);
    expect(await preferences(customer.token)).toEqual(before);
    expect(await ctx.database.db.selectFrom('notification_preferences').select('kind').where('user_id', '=', customer.userId).execute()).toEqual([]);
  });
});
