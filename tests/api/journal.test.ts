import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntries } from '../../src/server/ledger/posting';
import { sealAll } from '../../src/server/ledger/sealer';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext, valueDate, staffCall, staffEntry } from '../support/app';

// The whole journal (issue 15): every entry on every account, the bank's own included, filtered by
// kind, customer, account, booking time, value date and amount, paged by key; one entry's page.
let ctx: TestContext;
let admin: string;
let alice: Awaited<ReturnType<typeof createCustomer>>;
let bob: Awaited<ReturnType<typeof createCustomer>>;
let operationsId: string;
const entries: Record<string, string> = {};

const get = (url: string, token = admin) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const journal = async (query: string) => {
  const response = await get(`/api/admin/journal${query ? `?${query}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return json(response).data as {
    items: Array<{ id: string; seq: number; kind: string; amountCents: number; valueDate: string; bookedAt: string; postings: Array<Record<string, unknown>> }>;
    olderCursor: string | null;
    newerCursor: string | null;
    customerFound?: boolean;
  };
};

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  alice = await createCustomer(ctx, { firstName: 'Alice', lastName: 'Journal' });
  bob = await createCustomer(ctx, { firstName: 'Bob', lastName: 'Journal' });
  operationsId = (await ctx.database.db.selectFrom('ledger_accounts').select('id').where('kind', '=', 'bank_operations').executeTakeFirstOrThrow()).id;
  entries.aliceCredit = await staffEntry(ctx, alice.userId, 'credit', 300, { date: valueDate(-40), description: 'Alice funding' });
  entries.bobCredit = await staffEntry(ctx, bob.userId, 'credit', 80.25, { date: valueDate(-20), description: 'Bob funding' });
  const moved = await ctx.app.inject({
    method: 'POST',
    url: '/api/transaction/internal-transfer',
    headers: { ...bearer(alice.token), 'idempotency-key': randomUUID() },
    payload: { from: 'checking', to: 'savings', amount: 45 },
  });
  expect(moved.statusCode).toBe(201);
  entries.aliceInternal = json(moved).data.entryId;
  entries.bobDebit = await staffEntry(ctx, bob.userId, 'debit', 10, { date: valueDate(-20), description: 'Bob fee' });
  const reversal = await staffCall(ctx, {
    method: 'DELETE',
    url: `/api/transaction/admin/${entries.bobDebit}`,
    headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
    payload: { reason: 'fee waived' },
  });
  expect(reversal.statusCode).toBe(200);
  entries.bobReversal = json(reversal).data.reversalEntryId;
  const correction = await staffCall(ctx, {
    method: 'PUT',
    url: `/api/user/admin/account/${alice.userId}`,
    headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
    payload: { savings: 45, checking: 250, number: alice.accountNumber, reason: 'correction for the journal test' },
  });
  expect(correction.statusCode, correction.body).toBe(200);
  entries.aliceCorrection = json(correction).data.entryId;
});
afterAll(async () => ctx?.close());

describe('GET /api/admin/journal', () => {
  it('lists every entry newest first, the bank’s own accounts included, with every posting and its balance after', async () => {
    const page = await journal('pageSize=100');
    const count = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(page.items).toHaveLength(Number(count.n));
    const seqs = page.items.map((item) => item.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(page.items[0]?.id).toBe(entries.aliceCorrection);
    const credit = page.items.find((item) => item.id === entries.aliceCredit);
    expect(credit).toMatchObject({ kind: 'adjustment', amountCents: 30000, valueDate: valueDate(-40), authorEmail: 'admin@example.com', reversedBy: null });
    expect(credit?.postings).toEqual([
      expect.objectContaining({ accountKind: 'bank_operations', accountName: 'Operations adjustments', ownerId: null, amountCents: -30000 }),
      expect.objectContaining({
        accountKind: 'checking',
        ownerId: alice.userId,
        ownerName: 'Alice Journal',
        accountNumber: alice.accountNumber,
        amountCents: 30000,
        balanceAfterCents: 30000,
      }),
    ]);
    expect(page.items.find((item) => item.id === entries.bobDebit)).toMatchObject({ reversedBy: entries.bobReversal });
    expect(page.items.find((item) => item.id === entries.bobReversal)).toMatchObject({ kind: 'reversal', reversalOf: entries.bobDebit });
    expect(page.olderCursor).toBeNull();
    expect(page.newerCursor).toBeNull();
  });

  it("shows an entry's postings in one order on every load: between two customers, the payer before the payee", async () => {
    const db = ctx.database.db;
    // Customers of their own: the other tests count Alice's and Bob's entries.
    const bob = await createCustomer(ctx, { firstName: 'Bob', lastName: 'Order' });
    const alice = await createCustomer(ctx, { firstName: 'Alice', lastName: 'Order' });
    for (const customer of [bob, alice]) await staffEntry(ctx, customer.userId, 'credit', 10, { date: valueDate(0), description: 'Funding' });
    const checking = async (userId: string) =>
      (await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', 'checking').executeTakeFirstOrThrow()).id;
    // Bob pays Alice, and Alice pays Bob: whichever account sorts first, the debit leads.
    const [bobToAlice, aliceToBob] = await db.transaction().execute(async (trx) =>
      postEntries(trx, [
        {
          kind: 'transfer',
          description: 'Bob pays Alice',
          authorId: bob.userId,
          postings: [
            { accountId: await checking(bob.userId), amountCents: -1_00, counterparty: 'Alice Journal' },
            { accountId: await checking(alice.userId), amountCents: 1_00, counterparty: 'Bob Journal' },
          ],
        },
        {
          kind: 'transfer',
          description: 'Alice pays Bob',
          authorId: alice.userId,
          postings: [
            { accountId: await checking(bob.userId), amountCents: 2_00, counterparty: 'Alice Journal' },
            { accountId: await checking(alice.userId), amountCents: -2_00, counterparty: 'Bob Journal' },
          ],
        },
      ]),
    );
    for (let load = 0; load < 3; load += 1) {
      const page = await journal('kind=transfer&pageSize=100');
      const owners = (id: string | undefined) => page.items.find((item) => item.id === id)?.postings.map((posting) => [posting.ownerId, posting.amountCents]);
      expect(owners(bobToAlice?.id)).toEqual([
        [bob.userId, -1_00],
        [alice.userId, 1_00],
      ]);
      expect(owners(aliceToBob?.id)).toEqual([
        [alice.userId, -2_00],
        [bob.userId, 2_00],
      ]);
    }
  });

  it('pages by key: older and newer pages meet without a gap or a repeat', async () => {
    const all = (await journal('pageSize=100')).items.map((item) => item.id);
    const seen: string[] = [];
    let query = 'pageSize=2';
    const cursors: string[] = [];
    for (;;) {
      const page = await journal(query);
      seen.push(...page.items.map((item) => item.id));
      if (!page.olderCursor) break;
      cursors.push(page.olderCursor);
      query = `pageSize=2&older=${page.olderCursor}`;
    }
    expect(seen).toEqual(all);
    // Back from the second page to the first.
    const second = await journal(`pageSize=2&older=${cursors[0]}`);
    expect(second.newerCursor).not.toBeNull();
    const first = await journal(`pageSize=2&newer=${second.newerCursor}`);
    expect(first.items.map((item) => item.id)).toEqual(all.slice(0, 2));
    expect(first.newerCursor).toBeNull();
    expect(first.olderCursor).toBe(cursors[0]);
  });

  it('filters by kind', async () => {
    const reversals = await journal('kind=reversal');
    expect(reversals.items.map((item) => item.id)).toEqual([entries.bobReversal]);
    const internal = await journal('kind=internal');
    expect(internal.items.map((item) => item.id)).toEqual([entries.aliceInternal]);
  });

  it('filters by customer: a user id, an email or an account number', async () => {
    const expected = [entries.aliceCorrection, entries.aliceInternal, entries.aliceCredit];
    for (const customer of [alice.userId, alice.email.toUpperCase(), alice.accountNumber]) {
      const page = await journal(`customer=${encodeURIComponent(customer)}`);
      expect(
        page.items.map((item) => item.id),
        customer,
      ).toEqual(expected);
      expect(page.customerFound, customer).toBe(true);
    }
    // An internal transfer touches both of Alice's accounts and is listed once.
    // No customer by that name: an empty page that says so (the back office tells "no customer
    // matches" from "no entries match"), for an email, an account number and an id alike.
    for (const nobody of ['nobody%40example.com', '9999999999', '00000000-0000-7000-8000-000000000000']) {
      const page = await journal(`customer=${nobody}`);
      expect(page.items, nobody).toEqual([]);
      expect(page.customerFound, nobody).toBe(false);
    }
    // Without a customer filter the page says nothing about customers.
    expect(await journal('kind=reversal')).not.toHaveProperty('customerFound');
  });

  it('filters by account, the bank’s operations account included', async () => {
    const page = await journal(`account=${operationsId}&pageSize=100`);
    const touching = await ctx.database.db
      .selectFrom('postings')
      .select('entry_id')
      .where('account_id', '=', operationsId)
      .orderBy('entry_seq', 'desc')
      .execute();
    expect(page.items.map((item) => item.id)).toEqual(touching.map((row) => row.entry_id));
    expect(page.items.map((item) => item.id)).toEqual(expect.arrayContaining([entries.aliceCredit, entries.bobCredit, entries.bobDebit, entries.bobReversal]));
    for (const item of page.items) expect(item.postings.some((posting) => posting.accountId === operationsId)).toBe(true);
    // With a customer too: the account must be theirs.
    expect((await journal(`account=${operationsId}&customer=${alice.userId}`)).items).toEqual([]);
    // Paged one by one: each page knows whether anything lies beyond either end of it.
    const first = await journal(`account=${operationsId}&pageSize=1`);
    expect(first).toMatchObject({ newerCursor: null, olderCursor: String(first.items[0]?.seq) });
    const second = await journal(`account=${operationsId}&pageSize=1&older=${first.olderCursor}`);
    expect(second.items.map((item) => item.id)).toEqual([touching[1]?.entry_id]);
    expect(second.newerCursor).toBe(String(second.items[0]?.seq));
    const last = await journal(`account=${operationsId}&pageSize=1&older=${page.items[page.items.length - 2]?.seq}`);
    expect(last.items.map((item) => item.id)).toEqual([touching[touching.length - 1]?.entry_id]);
    expect(last.olderCursor).toBeNull();
    expect(last.newerCursor).not.toBeNull();
  });

  it('filters by booking time and by value date', async () => {
    const entry = (await journal('kind=internal')).items[0];
    const booked = new Date(entry?.bookedAt ?? '').getTime();
    const around = await journal(`bookedFrom=${new Date(booked).toISOString()}&bookedTo=${new Date(booked + 1).toISOString()}`);
    expect(around.items.map((item) => item.id)).toContain(entries.aliceInternal);
    for (const item of around.items) expect(new Date(item.bookedAt).getTime()).toBe(booked);
    expect((await journal(`bookedFrom=${new Date(booked + 3_600_000).toISOString()}`)).items).toEqual([]);
    const day = valueDate(-20);
    const valued = await journal(`valueFrom=${day}&valueTo=${day}`);
    expect(valued.items.map((item) => item.id).sort()).toEqual([entries.bobCredit, entries.bobDebit].sort());
  });

  it('pages a date range walked day by day in seq order, without a gap or a repeat, as the same filter walked by seq', async () => {
    // Up to DAY_WALK_DAYS_MAX days are read one day at a time down the (day, seq) indexes; a longer
    // range walks every entry by seq. Both must list the same entries in the same order.
    const [from, to] = [valueDate(-45), valueDate(0)];
    const walkAll = async (query: string) => {
      const seen: Array<{ id: string; seq: number }> = [];
      let cursor: string | null = null;
      for (let guard = 0; guard < 50; guard += 1) {
        const page = await journal(`${query}&pageSize=2${cursor ? `&older=${cursor}` : ''}`);
        seen.push(...page.items.map((item) => ({ id: item.id, seq: item.seq })));
        cursor = page.olderCursor;
        if (!cursor) break;
      }
      return seen;
    };
    const byDays = await walkAll(`valueFrom=${from}&valueTo=${to}`);
    const bySeq = await walkAll(`valueFrom=${valueDate(-400)}&valueTo=${to}`);
    expect(byDays.length).toBeGreaterThanOrEqual(5);
    expect(byDays).toEqual(bySeq);
    expect(byDays.map((item) => item.seq)).toEqual([...byDays.map((item) => item.seq)].sort((one, other) => other - one));
    expect(byDays.map((item) => item.id)).toEqual(expect.arrayContaining([entries.aliceCredit, entries.bobCredit, entries.aliceInternal]));
    // Booking time, the same way: the whole of today (UTC) by days, and a range too long to walk by days.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.parse(today) + 86_400_000).toISOString();
    const bookedByDays = await walkAll(`bookedFrom=${today}T00:00:00.000Z&bookedTo=${tomorrow}`);
    const bookedBySeq = await walkAll(`bookedFrom=${new Date(Date.parse(today) - 400 * 86_400_000).toISOString()}&bookedTo=${tomorrow}`);
    expect(bookedByDays.length).toBeGreaterThanOrEqual(5);
    expect(bookedByDays).toEqual(bookedBySeq);
    // And back: the newer page from the oldest position meets the pages already seen.
    const last = byDays[byDays.length - 1];
    const newer = await journal(`valueFrom=${from}&valueTo=${to}&pageSize=2&newer=${last?.seq}`);
    expect(newer.items.map((item) => item.id)).toEqual(byDays.slice(-3, -1).map((item) => item.id));
  });

  it('filters by amount range, both bounds included', async () => {
    expect((await journal('amountMin=80.25&amountMax=80.25')).items.map((item) => item.id)).toEqual([entries.bobCredit]);
    const small = await journal('amountMax=45');
    for (const item of small.items) expect(item.amountCents).toBeLessThanOrEqual(4500);
    expect(small.items.map((item) => item.id)).toEqual(expect.arrayContaining([entries.aliceInternal, entries.bobDebit, entries.bobReversal]));
    const combined = await journal(`kind=adjustment&customer=${bob.userId}&amountMin=10&amountMax=10`);
    expect(combined.items.map((item) => item.id)).toEqual([entries.bobDebit]);
  });

  it('pages an amount range by key both ways, newest first, as the unfiltered journal orders it (the keys are found first, migration 63)', async () => {
    const inRange = (await journal('pageSize=100')).items.filter((item) => item.amountCents >= 1000 && item.amountCents <= 30000);
    expect(inRange.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let page = await journal('amountMin=10&amountMax=300&pageSize=1');
    for (let guard = 0; guard < 20; guard += 1) {
      seen.push(...page.items.map((item) => item.id));
      if (!page.olderCursor) break;
      page = await journal(`amountMin=10&amountMax=300&pageSize=1&older=${page.olderCursor}`);
    }
    expect(seen).toEqual(inRange.map((item) => item.id));
    // From the oldest, the newer page is the one before it.
    const oldest = await journal(`amountMin=10&amountMax=300&pageSize=1&older=${inRange[inRange.length - 2]?.seq}`);
    expect(oldest.items.map((item) => item.id)).toEqual([inRange[inRange.length - 1]?.id]);
    expect(oldest.olderCursor).toBeNull();
    const back = await journal(`amountMin=10&amountMax=300&pageSize=1&newer=${oldest.newerCursor}`);
    expect(back.items.map((item) => item.id)).toEqual([inRange[inRange.length - 2]?.id]);
  });

  it('answers 400 with the field at fault for every bad filter', async () => {
    for (const [query, field] of [
      ['kind=refund', 'kind'],
      ['account=not-a-uuid', 'account'],
      ['bookedFrom=yesterday', 'bookedFrom'],
      ['bookedTo=2026-11-24', 'bookedTo'],
      ['bookedFrom=2026-11-24T10:00:00Z&bookedTo=2026-11-24T09:00:00Z', 'bookedTo'],
      ['valueFrom=2026-02-30', 'valueFrom'],
      ['valueFrom=2026-05-02&valueTo=2026-05-01', 'valueTo'],
      ['amountMin=abc', 'amountMin'],
      ['amountMin=1.234', 'amountMin'],
      ['amountMin=-5', 'amountMin'],
      ['amountMin=20&amountMax=10', 'amountMax'],
      ['older=0', 'older'],
      ['older=abc', 'older'],
      ['older=5&newer=3', 'newer'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['customer=someone', 'customer'],
      [`customer=${'x'.repeat(300)}`, 'customer'],
    ] as const) {
      const response = await get(`/api/admin/journal?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(json(response).fields?.[field], `${query}: ${response.body}`).toBeTruthy();
    }
    // A bound past the largest entry is told the limit, however many digits it has.
    for (const amount of ['100000000.01', '123456789012345678901']) {
      expect(json(await get(`/api/admin/journal?amountMax=${amount}`)).fields?.amountMax, amount).toBe('amountMax must be at most $100,000,000.00');
    }
  });

  it('is for staff only', async () => {
    expect((await get('/api/admin/journal', alice.token)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/journal' })).statusCode).toBe(401);
    expect((await get(`/api/admin/journal/${entries.aliceCredit}`, alice.token)).statusCode).toBe(403);
    expect((await get('/api/admin/accounts', alice.token)).statusCode).toBe(403);
  });
});

describe('GET /api/admin/journal/:id', () => {
  it('shows all postings, "not sealed yet" before the sealer, then its hash and predecessor', async () => {
    const fresh = await staffEntry(ctx, alice.userId, 'credit', 1, { description: 'Unsealed for a moment', reason: 'journal test' });
    const unsealed = json(await get(`/api/admin/journal/${fresh}`)).data;
    expect(unsealed.chain).toBeNull();
    await sealAll(ctx.database.db);
    const sealed = json(await get(`/api/admin/journal/${fresh}`)).data;
    const link = await ctx.database.db.selectFrom('ledger_chain').selectAll().where('entry_id', '=', fresh).executeTakeFirstOrThrow();
    const previous = await ctx.database.db
      .selectFrom('ledger_chain')
      .select(['hash', 'entry_id'])
      .where('position', '=', Number(link.position) - 1)
      .executeTakeFirstOrThrow();
    expect(sealed.chain).toEqual({
      position: Number(link.position),
      hash: link.hash,
      prevHash: previous.hash,
      prevEntryId: previous.entry_id,
      sealedAt: new Date(link.sealed_at).toISOString(),
    });
    expect(sealed.postings).toHaveLength(2);
    expect(sealed.reason).toBe('journal test');
    expect(sealed.audit).toEqual([expect.objectContaining({ action: 'transaction.create', actorEmail: 'admin@example.com', reason: 'journal test' })]);
  });

  it('links a reversal both ways, with the reversal’s audit record on both pages', async () => {
    const original = json(await get(`/api/admin/journal/${entries.bobDebit}`)).data;
    expect(original.reversal).toMatchObject({ id: entries.bobReversal });
    expect(original.reverses).toBeNull();
    expect(original.audit.map((record: { action: string }) => record.action)).toEqual(['transaction.create', 'transaction.reverse']);
    const reversal = json(await get(`/api/admin/journal/${entries.bobReversal}`)).data;
    expect(reversal.reverses).toMatchObject({ id: entries.bobDebit, description: 'Bob fee' });
    expect(reversal.reversal).toBeNull();
    expect(reversal.reason).toBe('fee waived');
    expect(reversal.audit).toEqual([expect.objectContaining({ action: 'transaction.reverse', reason: 'fee waived' })]);
    expect(reversal.postings.map((posting: { amountCents: number }) => posting.amountCents).sort()).toEqual(
      original.postings.map((posting: { amountCents: number }) => -posting.amountCents).sort(),
    );
  });

  it('finds a balance correction’s audit record, and answers 404 for an unknown entry', async () => {
    const correction = json(await get(`/api/admin/journal/${entries.aliceCorrection}`)).data;
    expect(correction.audit).toEqual([expect.objectContaining({ action: 'account.update', reason: 'correction for the journal test' })]);
    expect(correction.postings.find((posting: { accountKind: string }) => posting.accountKind === 'checking')).toMatchObject({ balanceAfterCents: 25000 });
    const missing = await get(`/api/admin/journal/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(json(missing).message).toBe('Entry not found');
    expect((await get('/api/admin/journal/not-an-id')).statusCode).toBe(404);
  });
});

describe('GET /api/admin/accounts', () => {
  it('lists the bank’s own accounts, or a customer’s', async () => {
    const bank = json(await get('/api/admin/accounts')).data;
    expect(bank.map((account: { kind: string }) => account.kind).sort()).toEqual([
      'bank_cash',
      'bank_operations',
      'external_clearing',
      'interest_income',
      'loans_receivable',
    ]);
    const own = json(await get(`/api/admin/accounts?ownerId=${alice.userId}`)).data;
    expect(own).toEqual([
      expect.objectContaining({ kind: 'checking', number: alice.accountNumber, ownerName: 'Alice Journal', balanceCents: 25100 }),
      expect.objectContaining({ kind: 'savings', number: alice.accountNumber, balanceCents: 4500 }),
    ]);
    expect((await get('/api/admin/accounts?ownerId=bad')).statusCode).toBe(400);
  });
});
