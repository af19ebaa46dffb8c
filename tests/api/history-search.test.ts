import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations/index';
import { ensureBankAccounts, openCustomerAccounts } from '../../src/server/ledger/accounts';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { listTransactions } from '../../src/server/transactions/repository';
import { monthsUpTo } from '../../src/server/transactions/service';
import {
  adminToken,
  bearer,
  createCustomer,
  createTestApp,
  createTestDatabase,
  json,
  lastCode,
  type TestContext,
  valueDate,
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
interface Line {
  description: string;
  counterparty: string | null;
  amount: number;
  transactionType: 'credit' | 'debit';
  account: 'savings' | 'checking';
  balanceAfter: number;
  date: string;
}

let keySeq = 0;
const key = () => `search-${Date.now()}-${keySeq++}`;
const get = (token: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (token: string, url: string, payload: Record<string, unknown>) =>
  staffCall(ctx, { method: 'POST', url, headers: { ...bearer(token), 'idempotency-key': key() }, payload });

async function history(token: string, query: string): Promise<{ items: Line[]; total: number }> {
  const response = await get(token, `/api/transaction${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return json(response).data;
}

async function pay(from: Customer, to: Customer, dollars: number, payeeName: string, description?: string) {
  const body = {
    from: from.accountNumber,
    amount: dollars,
    accountType: 'checking',
    accountNumber: to.accountNumber,
    to: payeeName,
    ...(description ? { description } : {}),
  };
  expect((await post(from.token, '/api/transaction/transfer', body)).statusCode).toBe(200);
  const paid = await post(from.token, '/api/transaction/transfer', { ...body, paymentPin: await lastCode(ctx, from.email) });
  expect(paid.statusCode, paid.body).toBe(201);
}

let alice: Customer;
let bob: Customer;
let carol: Customer;

beforeAll(async () => {
  alice = await createCustomer(ctx, { firstName: 'Alice', lastName: 'Wong' });
  bob = await createCustomer(ctx, { firstName: 'Bob', lastName: 'Okafor' });
  carol = await createCustomer(ctx, { firstName: 'Carol', lastName: 'Díaz' });
  await staffEntry(ctx, alice.userId, 'credit', 1000, { description: 'Salary November' });
  await pay(alice, bob, 42.5, 'Bob Okafor', 'Climbing gym');
  await pay(alice, bob, 120, 'Bob Okafor', 'Rent share');
  await pay(alice, carol, 15.25, 'Carol Díaz', 'Coffee 100% arabica');
  await pay(alice, carol, 300, 'Carol Díaz');
  await staffEntry(ctx, alice.userId, 'debit', 9.99, { description: 'Card fee' });
  // Another customer's lines with the same words must never show in Alice's search.
  await staffEntry(ctx, bob.userId, 'credit', 500, { description: 'Rent share deposit' });
});

describe('GET /api/transaction: search by words and amount', () => {
  it('finds lines by payee name (the counterparty), in any case, with their running balance', async () => {
    const found = await history(alice.token, '?q=okafor');
    expect(found.total).toBe(2);
    expect(found.items.map((line) => [line.description, line.amount, line.transactionType])).toEqual([
      ['Rent share', 120, 'debit'],
      ['Climbing gym', 42.5, 'debit'],
    ]);
    expect(found.items.every((line) => line.counterparty === 'Bob Okafor')).toBe(true);
    // The running balance is the account's balance after each line, whatever the filter.
    expect(found.items.map((line) => line.balanceAfter)).toEqual([837.5, 957.5]);

    // The payee sees the same transfers under the payer's name.
    const incoming = await history(bob.token, '?q=ALICE');
    expect(incoming.items.map((line) => [line.counterparty, line.amount, line.transactionType])).toEqual([
      ['Alice Wong', 120, 'credit'],
      ['Alice Wong', 42.5, 'credit'],
    ]);
  });

  it('finds lines by the words of their description, the last word typed by its start', async () => {
    expect((await history(alice.token, '?q=rent')).items.map((line) => line.description)).toEqual(['Rent share']);
    expect((await history(alice.token, '?q=salary%20nov')).items.map((line) => line.description)).toEqual(['Salary November']);
    expect((await history(alice.token, '?q=100%25')).items.map((line) => line.description)).toEqual(['Coffee 100% arabica']);
    // Every word typed must be there: a word of another line does not widen the search.
    expect((await history(alice.token, '?q=rent%20coffee')).total).toBe(0);
    // Words are split at punctuation on both sides, and letters beyond ASCII are words' letters, in any case.
    expect((await history(alice.token, '?q=d%C3%ADaz')).total).toBe(2);
    expect((await history(alice.token, '?q=D%C3%8DAZ')).total).toBe(2);
    expect((await history(alice.token, '?q=coffee,100')).items.map((line) => line.description)).toEqual(['Coffee 100% arabica']);
    expect((await history(alice.token, '?q=nothing-like-this')).items).toEqual([]);
  });

  it('matches the start of a word, not its middle, and punctuation alone matches nothing (ADR 013)', async () => {
    // A word's start: the payee's name as it is being typed.
    expect((await history(alice.token, '?q=okaf')).total).toBe(2);
    expect((await history(alice.token, '?q=arab')).items.map((line) => line.description)).toEqual(['Coffee 100% arabica']);
    // The middle of a word is not a word: "kafor" and "abica" find nothing (the trigram search of
    // migration 31 found them), nor does a word that is only a start when it is not the last typed.
    expect((await history(alice.token, '?q=kafor')).total).toBe(0);
    expect((await history(alice.token, '?q=abica')).total).toBe(0);
    expect((await history(alice.token, '?q=okaf%20rent')).total).toBe(0);
    // LIKE's wildcards and other punctuation are no words: they match nothing, as in the staff search.
    expect((await history(alice.token, '?q=%25')).total).toBe(0);
    expect((await history(alice.token, '?q=_')).total).toBe(0);
    expect((await history(alice.token, '?q=.-')).total).toBe(0);
  });

  it("finds a line by a staff note's words and an email address by its local part", async () => {
    const erin = await createCustomer(ctx, { firstName: 'Erin', lastName: 'Moss' });
    const entryId = await staffEntry(ctx, erin.userId, 'credit', 80, { description: 'Refund from mary.zimm@example.com' });
    await staffEntry(ctx, erin.userId, 'credit', 5, { description: 'Cashback' });
    expect((await history(erin.token, '?q=mary')).items.map((line) => line.amount)).toEqual([80]);
    expect((await history(erin.token, '?q=zimm')).items.map((line) => line.amount)).toEqual([80]);
    expect((await history(erin.token, '?q=mary.zimm%40example.com')).items.map((line) => line.amount)).toEqual([80]);
    const described = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/transaction/admin/${entryId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: { description: 'Goodwill for the delayed parcel', reason: 'test: a note' },
    });
    expect(described.statusCode, described.body).toBe(200);
    const found = await history(erin.token, '?q=delayed%20parc');
    expect(found.items.map((line) => [line.description, line.amount])).toEqual([['Goodwill for the delayed parcel', 80]]);
    expect((await history(erin.token, '?q=elayed')).total).toBe(0);
  });

  it('filters by an amount range (a debit and a credit by their size), with the other filters', async () => {
    const range = await history(alice.token, '?amountMin=15.25&amountMax=120');
    expect(range.items.map((line) => line.amount)).toEqual([15.25, 120, 42.5]);
    expect((await history(alice.token, '?amountMin=300')).items.map((line) => line.amount)).toEqual([300, 1000]);
    expect((await history(alice.token, '?amountMax=10')).items.map((line) => line.description)).toEqual(['Card fee']);
    expect((await history(alice.token, '?amountMin=42.50&amountMax=42.50&q=gym&type=debit&account=checking')).total).toBe(1);
    expect((await history(alice.token, '?amountMin=42.50&amountMax=42.50&type=credit')).total).toBe(0);
    expect((await history(alice.token, '?q=carol&amountMin=100')).items.map((line) => line.amount)).toEqual([300]);
  });

  it('refuses bad search input with 400', async () => {
    const cases: Array<[string, string]> = [
      ['?amountMin=20&amountMax=10', 'amountMin must not be more than amountMax'],
      ['?amountMin=abc', 'amountMin must be a number, e.g. 25 or 99.50'],
      ['?amountMax=-5', 'amountMax cannot be negative'],
      ['?amountMin=1.234', 'amountMin can have at most 2 decimal places'],
      ['?amountMin=1%2C000', 'amountMin must be typed without commas, e.g. 1000.00'],
      // Too large is told the limit, however many digits it has.
      ['?amountMax=10000000.01', 'amountMax must be at most $10,000,000.00'],
      ['?amountMax=123456789012345678901', 'amountMax must be at most $10,000,000.00'],
      [`?q=${'x'.repeat(101)}`, 'Search must be at most 100 characters'],
      ['?q=a%00b', 'Search must not contain control characters'],
      // A range that ends before it starts is refused, not answered empty; and so is a page that is not one.
      ['?from=2026-12-01&to=2026-01-01', 'from must be on or before to'],
      ['?page=abc', 'page must be a number'],
      ['?page=1.5', 'page must be a whole number'],
      ['?page=100001', 'page must be at most 100000'],
      ['?pageSize=abc', 'pageSize must be a number'],
    ];
    for (const [query, message] of cases) {
      const response = await get(alice.token, `/api/transaction${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(json(response).message, query).toBe(message);
    }
  });

  it('lets staff search a customer the same way', async () => {
    const response = await get(admin, `/api/transaction/admin/${alice.userId}?q=okafor&amountMin=100`);
    expect(response.statusCode).toBe(200);
    expect(json(response).data.items.map((line: Line) => line.amount)).toEqual([120]);
    const reversed = await get(admin, `/api/transaction/admin/${alice.userId}?from=2026-12-01&to=2026-01-01`);
    expect(reversed.statusCode).toBe(400);
    expect(json(reversed).message).toBe('from must be on or before to');
  });
});

describe('migration 2026-11-26-63b (words instead of trigrams)', () => {
  it('indexes the words of the lines written before it, and leaves no trigram index behind', async () => {
    const { url } = await createTestDatabase();
    const handle = createDatabase(url, { max: 2 });
    try {
      const names = Object.keys(migrations);
      const before = names[names.indexOf('2026-11-26-63b-history-words') - 1];
      expect(before).toBeDefined();
      const partial = await new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } }).migrateTo(before!);
      expect(partial.error).toBeUndefined();
      await ensureBankAccounts(handle.db);
      const user = await handle.db
        .insertInto('users')
        .values({ email: 'old.lines@example.com', password_hash: '!test', first_name: 'Old', last_name: 'Lines', is_email_confirmed: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      await openCustomerAccounts(handle.db, user.id);
      const checking = await handle.db
        .selectFrom('ledger_accounts')
        .select('id')
        .where('owner_id', '=', user.id)
        .where('kind', '=', 'checking')
        .executeTakeFirstOrThrow();
      const cash = await bankAccountId(handle.db, 'bank_cash');
      await handle.db.transaction().execute((trx) =>
        postEntries(trx, [
          {
            kind: 'adjustment',
            description: 'Cheque from Zoë Ångström',
            authorId: null,
            postings: [
              { accountId: cash, amountCents: -7_000 },
              { accountId: checking.id, amountCents: 7_000, memo: null, counterparty: 'Harbor-Rent LLC' },
            ],
          },
        ]),
      );

      await migrateToLatest(handle.db);
      const indexes = await sql<{
        indexname: string;
      }>`select indexname from pg_indexes where indexname like '%trgm%' or indexname like '%history_words%' order by 1`.execute(handle.db);
      expect(indexes.rows.map((row) => row.indexname)).toEqual([
        'entry_notes_history_words_idx',
        'journal_entries_history_words_idx',
        'postings_history_words_idx',
      ]);
      const search = async (q: string) =>
        (await listTransactions(handle.db, { userId: user.id, page: 1, pageSize: 20, q, amountMin: undefined, amountMax: undefined })).items.map(
          (line) => line.amount,
        );
      expect(await search('ÅNGSTRÖM')).toEqual([70]);
      expect(await search('zoë')).toEqual([70]);
      expect(await search('harbor rent')).toEqual([70]);
      expect(await search('arbor')).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

describe('GET /api/transaction/monthly-totals', () => {
  it('answers money in and out for each of the last 12 months, oldest first, leaving out moves between own accounts', async () => {
    const dana = await createCustomer(ctx);
    const twoMonthsAgo = valueDate(-62);
    await staffEntry(ctx, dana.userId, 'credit', 250, { description: 'Bonus', date: twoMonthsAgo });
    await staffEntry(ctx, dana.userId, 'credit', 100, { description: 'Refund' });
    await staffEntry(ctx, dana.userId, 'debit', 30.5, { description: 'Fee' });
    const moved = await post(dana.token, '/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 50 });
    expect(moved.statusCode).toBe(201);

    const response = await get(dana.token, '/api/transaction/monthly-totals');
    expect(response.statusCode, response.body).toBe(200);
    const { months } = json(response).data as { months: Array<{ month: string; moneyIn: number; moneyOut: number }> };
    expect(months.map((month) => month.month)).toEqual(monthsUpTo(valueDate().slice(0, 7), 12));
    expect(months).toHaveLength(12);
    const thisMonth = valueDate().slice(0, 7);
    const earlier = twoMonthsAgo.slice(0, 7);
    expect(months.find((month) => month.month === thisMonth)).toEqual({ month: thisMonth, moneyIn: 100, moneyOut: 30.5 });
    expect(months.find((month) => month.month === earlier)).toEqual({ month: earlier, moneyIn: 250, moneyOut: 0 });
    expect(months.filter((month) => month.month !== thisMonth && month.month !== earlier).every((month) => month.moneyIn === 0 && month.moneyOut === 0)).toBe(
      true,
    );

    // One account: every line of it counts, the move to savings included.
    const checking = json(await get(dana.token, '/api/transaction/monthly-totals?account=checking')).data.months;
    expect(checking.find((month: { month: string }) => month.month === thisMonth)).toEqual({ month: thisMonth, moneyIn: 100, moneyOut: 80.5 });
    const savings = json(await get(dana.token, '/api/transaction/monthly-totals?account=savings')).data.months;
    expect(savings.find((month: { month: string }) => month.month === thisMonth)).toEqual({ month: thisMonth, moneyIn: 50, moneyOut: 0 });

    // Someone else's money is not in anyone's totals; bad input and the wrong caller are refused.
    const others = json(await get(carol.token, '/api/transaction/monthly-totals')).data.months;
    expect(others.find((month: { month: string }) => month.month === thisMonth)).toEqual({ month: thisMonth, moneyIn: 315.25, moneyOut: 0 });
    const bad = await get(dana.token, '/api/transaction/monthly-totals?account=loans');
    expect(bad.statusCode).toBe(400);
    expect(json(bad).message).toBe('account must be savings or checking');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/transaction/monthly-totals' })).statusCode).toBe(401);
    expect((await get(admin, '/api/transaction/monthly-totals')).statusCode).toBe(403);
  });

  it('counts months across a year end', () => {
    expect(monthsUpTo('2027-02', 4)).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
  });
});
