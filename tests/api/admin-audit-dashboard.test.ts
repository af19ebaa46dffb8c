import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/server/audit/audit';
import { inTransaction } from '../../src/server/db/transaction';
import { ensureBankAccounts } from '../../src/server/ledger/accounts';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { adminToken, bearer, createCustomer, createTestApp, customerAccountIds, json, submitKyc, type TestContext, staffCall } from '../support/app';

let ctx: TestContext;
let admin: string;
let adminId: string;
let alice: Awaited<ReturnType<typeof createCustomer>>;
let bob: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  adminId = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(admin) })).data._id;
  alice = await createCustomer(ctx, { firstName: 'Alice', lastName: 'Auditson' });
  bob = await createCustomer(ctx, { firstName: 'Bob', lastName: 'Builder' });
});
afterAll(async () => ctx?.close());

const update = (who: { email: string }, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Someone',
  lastName: 'Else',
  email: who.email,
  phone: '+1 202 555 0111',
  location: { address: '1 Audit Way', state: 'Texas' },
  verificationStatus: 'awaiting',
  isBlocked: false,
  isAccountDisabled: false,
  ...overrides,
});

const accountId = async (userId: string, kind: 'checking' | 'savings'): Promise<string> => (await customerAccountIds(ctx, userId))[kind];

describe('admin audit and dashboard calls: who may call them', () => {
  const urls = ['/api/admin/audit', '/api/admin/audit/filters', '/api/admin/dashboard'];
  it('answers 401 without a session and 403 to a customer', async () => {
    for (const url of urls) {
      const anonymous = await ctx.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      const customer = await ctx.app.inject({ method: 'GET', url, headers: bearer(alice.token) });
      expect(customer.statusCode, url).toBe(403);
      expect(json(customer).message).toBe('Only bank staff can do this.');
    }
  });
});

describe('GET /api/admin/audit', () => {
  beforeAll(async () => {
    for (const [who, overrides] of [
      [alice, { isBlocked: true }],
      [alice, { isBlocked: true, verificationStatus: 'verified' }],
      [bob, {}],
    ] as const) {
      const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${who.userId}`, headers: bearer(admin), payload: update(who, overrides) });
      expect(response.statusCode).toBe(200);
    }
  });

  it('lists every staff action newest first, with who, what, when, target, before and after', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit', headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    const { items, total } = json(response).data;
    expect(total).toBeGreaterThanOrEqual(4);
    const times = items.map((item: { at: string }) => item.at);
    expect(times).toEqual([...times].sort().reverse());
    const block = items.find((item: { action: string }) => item.action === 'user.block');
    expect(block).toMatchObject({
      actorId: adminId,
      actorEmail: 'admin@example.com',
      targetUserId: alice.userId,
      targetName: 'Someone Else',
      before: { isBlocked: false },
      after: { isBlocked: true },
    });
    expect(items[0].targetUserId).toBe(bob.userId);
  });

  it('lists the records of one moment newest first, also where their ids cross a power of ten', async () => {
    const customer = await createCustomer(ctx);
    const { rows } = await ctx.database.pool.query<{ last: string }>(`select coalesce(max(id), 0)::text as last from audit_log`);
    const last = rows[0]?.last ?? '0';
    // Enough records in one transaction (one `at`) that their ids pass the next power of ten.
    const count = 10 ** String(Number(last) + 1).length - Number(last) + 3;
    await inTransaction(ctx.database.db, async (trx) => {
      for (let record = 1; record <= Math.min(count, 100); record += 1)
        await audit(trx, null, { action: 'test.moment', targetUserId: customer.userId, targetType: 'user', targetId: customer.userId });
    });
    const response = await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?customer=${customer.userId}&pageSize=100`, headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    const ids = json(response).data.items.map((item: { id: string }) => Number(item.id));
    expect(ids.length).toBeGreaterThan(3);
    expect(String(Math.max(...ids)).length).toBeGreaterThan(String(Math.min(...ids)).length);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('filters by customer (id, email or account number), by action and by staff member', async () => {
    for (const customer of [alice.userId, alice.email, alice.accountNumber]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?customer=${encodeURIComponent(customer)}`, headers: bearer(admin) });
      expect(response.statusCode).toBe(200);
      const items = json(response).data.items as Array<{ targetUserId: string; action: string }>;
      expect(items.map((item) => item.action).sort()).toEqual(['user.block', 'user.update', 'user.update']);
      expect(items.every((item) => item.targetUserId === alice.userId)).toBe(true);
    }
    const blocks = json(await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=user.block', headers: bearer(admin) })).data;
    expect(blocks.total).toBe(1);
    const byStaff = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?actorId=${adminId}&pageSize=1`, headers: bearer(admin) })).data;
    expect(byStaff.items).toHaveLength(1);
    expect(byStaff.total).toBeGreaterThanOrEqual(4);
    const nobody = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?actorId=${alice.userId}`, headers: bearer(admin) })).data;
    expect(nobody).toMatchObject({ items: [], total: 0 });
  });

  it('refuses bad filters with a clear message', async () => {
    const cases: Array<[string, number, string]> = [
      ['actorId=42', 400, 'actorId is not a valid id'],
      ['action=DROP%20TABLE', 400, 'action may contain only lower-case letters, digits, dots and underscores'],
      ['customer=Alice', 400, 'Customer must be a user id, an email address or a 10-digit account number'],
      ['customer=nobody%40example.com', 404, 'No customer has that email address or account number'],
      ['pageSize=101', 400, 'pageSize must be at most 100'],
      ['customer=alice%0A%40example.com', 400, 'customer must not contain control characters'],
      ['action=user.block%00', 400, 'action may contain only lower-case letters, digits, dots and underscores'],
    ];
    for (const [query, status, message] of cases) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?${query}`, headers: bearer(admin) });
      expect(response.statusCode, query).toBe(status);
      expect(json(response).message).toBe(message);
    }
  });

  it('offers the staff members and the actions present as filters', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/admin/audit/filters', headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    const data = json(response).data;
    // The second staff member approved the closure above (four eyes, ADR 023), so acted too.
    const second = await ctx.database.db.selectFrom('users').select('id').where('email', '=', 'admin2@example.com').executeTakeFirstOrThrow();
    expect(data.staff).toEqual([
      { id: second.id, email: 'admin2@example.com', name: 'Second Approver' },
      { id: adminId, email: 'admin@example.com', name: 'Bank Administrator' },
    ]);
    const present = await ctx.database.db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
    expect(data.actions).toEqual(present.map((row) => row.action));
    expect(data.actions).toContain('user.block');
  });

  it('is append-only: the database refuses to change or delete a record', async () => {
    await expect(sql`update audit_log set action = 'nothing'`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
  });
});

describe('DELETE closes instead when another module still holds the customer', () => {
  it('closes a customer with a loan application but no ledger history', async () => {
    const borrower = await createCustomer(ctx);
    await ctx.database.db
      .insertInto('loans')
      .values({
        user_id: borrower.userId,
        loan_type: 'auto',
        amount_cents: 500_000,
        duration_months: 24,
        purpose: 'Car',
        annual_rate_bps: 700,
        monthly_payment_cents: 22_000,
      })
      .execute();
    const response = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${borrower.userId}`, headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    expect(json(response).data.outcome).toBe('closed');
    const row = await ctx.database.db.selectFrom('users').select(['closed_at', 'first_name']).where('id', '=', borrower.userId).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Closed');
    expect(row.closed_at).not.toBeNull();
  });
});

describe('GET /api/admin/dashboard', () => {
  it('shows customers, deposits held, today’s transfers, pending reviews and a 30-day series', async () => {
    const db = ctx.database.db;
    await db.transaction().execute(async (trx) => {
      const cash = await bankAccountId(trx, 'bank_cash');
      await postEntries(trx, [
        {
          kind: 'opening',
          description: 'Opening deposit',
          authorId: null,
          postings: [
            { accountId: await accountId(alice.userId, 'checking'), amountCents: 100_000 },
            { accountId: cash, amountCents: -100_000 },
          ],
        },
        {
          kind: 'transfer',
          description: 'Rent',
          authorId: alice.userId,
          postings: [
            { accountId: await accountId(alice.userId, 'checking'), amountCents: -25_050 },
            { accountId: await accountId(bob.userId, 'checking'), amountCents: 25_050 },
          ],
        },
        {
          kind: 'internal',
          description: 'To savings',
          authorId: bob.userId,
          postings: [
            { accountId: await accountId(bob.userId, 'checking'), amountCents: -5_000 },
            { accountId: await accountId(bob.userId, 'savings'), amountCents: 5_000 },
          ],
        },
        {
          // A standing order's payment is a transfer too.
          kind: 'standing_order',
          description: 'Monthly allowance',
          authorId: alice.userId,
          postings: [
            { accountId: await accountId(alice.userId, 'checking'), amountCents: -7_000 },
            { accountId: await accountId(bob.userId, 'checking'), amountCents: 7_000 },
          ],
        },
      ]);
    });
    // Bob sends his documents: one review waiting.
    await submitKyc(ctx, bob.token);
    await db
      .insertInto('loans')
      .values({
        user_id: bob.userId,
        loan_type: 'home',
        amount_cents: 9_000_000,
        duration_months: 60,
        purpose: 'House',
        annual_rate_bps: 500,
        monthly_payment_cents: 170_000,
      })
      .execute();

    const response = await ctx.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    const data = json(response).data;

    const customers = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('is_admin', '=', false)
      .where('closed_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(data.customers).toBe(Number(customers.n));
    // What customers hold, summed the long way, equals the figure the dashboard derives from the bank's side.
    const held = await db
      .selectFrom('ledger_accounts')
      .select((eb) => eb.fn.sum<string>('balance').as('s'))
      .where('owner_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(data.depositsHeldCents).toBe(Number(held.s));
    expect(data.depositsHeldCents).toBeGreaterThanOrEqual(100_000);

    const todays = await sql<{ n: number; v: number }>`
      select count(*)::int as n, coalesce(sum(amount), 0)::bigint as v from journal_entries
      where kind in ('transfer', 'wire', 'internal', 'standing_order') and booked_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`.execute(
      db,
    );
    const todayUtc = new Date().toISOString().slice(0, 10);
    expect(data.timeZone).toBe('UTC');
    expect(data.transfersToday).toEqual({
      count: todays.rows[0]!.n,
      volumeCents: Number(todays.rows[0]!.v),
      from: `${todayUtc}T00:00:00.000Z`,
      to: new Date(Date.parse(`${todayUtc}T00:00:00.000Z`) + 86_400_000).toISOString(),
    });
    expect(data.transfersToday.count).toBeGreaterThanOrEqual(3);
    expect(data.transfersToday.volumeCents).toBeGreaterThanOrEqual(37_050);

    const pending = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('verification_status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(data.pendingKycReviews).toBe(Number(pending.n));
    expect(data.pendingKycReviews).toBeGreaterThanOrEqual(1);
    const loans = await db
      .selectFrom('loans')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(data.pendingLoanApplications).toBe(Number(loans.n));
    const contactTable = await sql<{ found: boolean }>`select to_regclass('public.contact_messages') is not null as found`.execute(db);
    if (contactTable.rows[0]!.found) {
      const unread = await sql<{ n: number }>`select count(*)::int as n from contact_messages where read_at is null`.execute(db);
      expect(data.newContactMessages).toBe(unread.rows[0]!.n);
    } else {
      expect(data.newContactMessages).toBeNull();
    }

    expect(data.transferVolume).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.transferVolume.at(-1)).toEqual({ date: today, count: data.transfersToday.count, volumeCents: data.transfersToday.volumeCents });
    const dates = data.transferVolume.map((day: { date: string }) => day.date);
    expect(new Set(dates).size).toBe(30);
    expect(dates).toEqual([...dates].sort());
  });
});

describe("the dashboard's days are the bank's", () => {
  it('counts by the day in BANK_TIMEZONE: a transfer at 02:00 UTC belongs to the evening before in New York', async () => {
    const now = new Date('2026-11-10T15:00:00Z');
    const app = await createTestApp({ clock: { now: () => now }, seedDemo: false, env: { BANK_TIMEZONE: 'America/New_York' } });
    try {
      await ensureBankAccounts(app.database.db);
      const customer = await createCustomer(app);
      const { checking } = await customerAccountIds(app, customer.userId);
      const operations = await bankAccountId(app.database.db, 'bank_operations');
      const transfer = (cents: number, at: string) =>
        inTransaction(app.database.db, (trx) =>
          postEntries(
            trx,
            [
              {
                kind: 'internal',
                description: `Booked at ${at}`,
                authorId: null,
                postings: [
                  { accountId: checking, amountCents: cents },
                  { accountId: operations, amountCents: -cents },
                ],
              },
            ],
            { now: new Date(at) },
          ),
        );
      await transfer(100, '2026-11-10T02:00:00Z'); // 21:00 on 9 November in New York
      await transfer(250, '2026-11-10T14:00:00Z'); // 09:00 on 10 November
      // No demo data here (it would book today): a staff member of the finance role reads the dashboard.
      const token = await adminToken(app, { role: 'finance' });
      const answer = await app.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: bearer(token) });
      expect(answer.statusCode, answer.body).toBe(200);
      const data = json(answer).data;
      expect(data.timeZone).toBe('America/New_York');
      // New York's 10 November runs from 05:00 UTC to 05:00 UTC the next day: the journal link's range.
      expect(data.transfersToday).toEqual({ count: 1, volumeCents: 250, from: '2026-11-10T05:00:00.000Z', to: '2026-11-11T05:00:00.000Z' });
      expect(data.transferVolume.at(-1)).toEqual({ date: '2026-11-10', count: 1, volumeCents: 250 });
      expect(data.transferVolume.at(-2)).toEqual({ date: '2026-11-09', count: 1, volumeCents: 100 });
    } finally {
      await app.close();
    }
  });
});
