import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/server/ledger/verify';
import { bearer, createCustomer, json, signIn, type TestContext, createTestApp } from '../support/app';

let ctx: TestContext;
let alex: string;
beforeAll(async () => {
  ctx = await createTestApp();
  alex = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
});
afterAll(async () => ctx?.close());

let keySeq = 0;
const key = () => `test-key-${Date.now()}-${keySeq++}`;

describe('ledger basics', () => {
  it('gives demo customers opening balances through real entries from cash', async () => {
    const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(alex) });
    expect(me.statusCode).toBe(200);
    expect(json(me).data.account).toMatchObject({ savings: 12000, checking: 2500 });
    const list = await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(alex) });
    expect(list.statusCode).toBe(200);
    const items = json(list).data.items;
    expect(items).toHaveLength(2);
    expect(items.every((item: { kind: string; transactionType: string }) => item.kind === 'opening' && item.transactionType === 'credit')).toBe(true);
    const cash = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('kind', '=', 'bank_cash').executeTakeFirstOrThrow();
    expect(cash.balance).toBe(-(1_200_000 + 250_000 + 80_000 + 300_000));
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('moves money between own accounts, with the spec messages for bad input', async () => {
    const post = (payload: unknown, idempotencyKey: string | null = key()) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/transaction/internal-transfer',
        headers: { ...bearer(alex), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        payload: payload as object,
      });
    const ok = await post({ from: 'savings', to: 'checking', amount: 100.5 });
    expect(ok.statusCode).toBe(201);
    expect(json(ok).message).toBe('Transfer Successful');
    expect(json(ok).data).toMatchObject({
      amount: 100.5,
      transactionType: 'debit',
      account: 'savings',
      kind: 'internal',
      status: 'completed',
      reversalOf: null,
      reversedBy: null,
    });
    expect(json(ok).data._id).toMatch(/^[0-9a-f-]{36}$/);
    const me = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(alex) })).data;
    expect(me.account).toMatchObject({ savings: 11899.5, checking: 2600.5 });

    const same = await post({ from: 'savings', to: 'savings', amount: 1 });
    expect(same.statusCode).toBe(400);
    expect(json(same).message).toBe('You cannot transfer to the same account');
    for (const amount of [0, -5, '0.00']) {
      const bad = await post({ from: 'savings', to: 'checking', amount });
      expect(bad.statusCode).toBe(400);
      expect(json(bad).message).toBe('Amount must be greater than 0');
    }
    const fractional = await post({ from: 'savings', to: 'checking', amount: 1.234 });
    expect(fractional.statusCode).toBe(400);
    expect(json(fractional).message).toBe('Amount can have at most 2 decimal places');
    const missing = await post({ from: 'savings', to: 'checking' });
    expect(json(missing).message).toBe('Please fill all fields');
    const wrongType = await post({ from: 'bank', to: 'checking', amount: 1 });
    expect(wrongType.statusCode).toBe(400);
    const tooMuch = await post({ from: 'checking', to: 'savings', amount: 1_000_000 });
    expect(tooMuch.statusCode).toBe(400);
    expect(json(tooMuch).message).toBe('Insufficient funds');
    const noKey = await post({ from: 'savings', to: 'checking', amount: 1 }, null);
    expect(noKey.statusCode).toBe(400);
    expect(json(noKey).message).toMatch(/Idempotency-Key/);
    const badKey = await post({ from: 'savings', to: 'checking', amount: 1 }, 'x');
    expect(badKey.statusCode).toBe(400);
    const notJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(alex), 'idempotency-key': key(), 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(notJson.statusCode).toBe(400);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { 'idempotency-key': key() },
      payload: { from: 'savings', to: 'checking', amount: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('replays the first answer for the same key and body, and answers 409 for another body', async () => {
    const idempotencyKey = key();
    const send = (amount: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/transaction/internal-transfer',
        headers: { ...bearer(alex), 'idempotency-key': idempotencyKey },
        payload: { from: 'checking', to: 'savings', amount },
      });
    const before = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const first = await send(7);
    const second = await send(7);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replay']).toBe('true');
    expect(json(second)).toEqual(json(first));
    const after = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(1);
    const other = await send(8);
    expect(other.statusCode).toBe(409);
    expect(json(other).code).toBe('idempotency_conflict');
    // Keys are per user: another customer may use the same key.
    const jamie = await signIn(ctx, 'jamie.lee@example.com', 'Ledgerline-Demo-2026');
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(jamie), 'idempotency-key': idempotencyKey },
      payload: { from: 'checking', to: 'savings', amount: 7 },
    });
    expect(theirs.statusCode).toBe(201);
    expect(json(theirs).data.balanceAfter).toBe(793);
  });

  it('answers concurrent retries with the same key once', async () => {
    const idempotencyKey = key();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/transaction/internal-transfer',
          headers: { ...bearer(alex), 'idempotency-key': idempotencyKey },
          payload: { from: 'checking', to: 'savings', amount: 3 },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    const entryIds = new Set(responses.map((response) => json(response).data.entryId));
    expect(entryIds.size).toBe(1);
    const stored = await ctx.database.db.selectFrom('idempotency_keys').select('entry_id').where('key', '=', idempotencyKey).execute();
    expect(stored).toHaveLength(1);
  });

  it('lists with pagination and filters, and validates the query', async () => {
    const page = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction?page=1&pageSize=2', headers: bearer(alex) })).data;
    expect(page.items).toHaveLength(2);
    expect(page.pageSize).toBe(2);
    expect(page.total).toBeGreaterThan(4);
    expect(new Date(page.items[0].bookedAt).getTime()).toBeGreaterThanOrEqual(new Date(page.items[1].bookedAt).getTime());
    const credits = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction?type=credit&account=savings&pageSize=100', headers: bearer(alex) })).data;
    expect(credits.items.length).toBeGreaterThan(0);
    expect(credits.items.every((item: { transactionType: string; account: string }) => item.transactionType === 'credit' && item.account === 'savings')).toBe(
      true,
    );
    const lastDay = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction?from=2100-12-31', headers: bearer(alex) })).data;
    expect(lastDay.total).toBe(0);
    // Dates outside 1900-01-01..2100-12-31 are refused (PostgreSQL would fail on year 0000).
    for (const query of ['pageSize=1000', 'page=0', 'type=both', 'account=bank', 'from=2026-13-45', 'to=yesterday', 'from=2999-01-01', 'to=0000-01-01']) {
      const bad = await ctx.app.inject({ method: 'GET', url: `/api/transaction?${query}`, headers: bearer(alex) });
      expect(bad.statusCode, query).toBe(400);
      expect(json(bad).message).toBeTruthy();
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/transaction' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses UPDATE and DELETE on entries and postings in the database, and unbalanced entries at commit', async () => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      await expect(client.query('update postings set amount = amount + 1')).rejects.toThrow(/append-only/);
      await expect(client.query('delete from journal_entries')).rejects.toThrow(/append-only/);
      await expect(client.query("update journal_entries set description = 'x'")).rejects.toThrow(/append-only/);
      await expect(client.query('truncate postings cascade')).rejects.toThrow(/append-only/);
      const account = (await client.query("select id from ledger_accounts where kind = 'bank_cash'")).rows[0].id;
      const entry = (await client.query('select id, seq from journal_entries order by seq desc limit 1')).rows[0];
      await expect(
        client.query('insert into postings (entry_id, entry_seq, account_id, amount, balance_after) values ($1, $2, $3, 5, 0)', [entry.id, entry.seq, account]),
      ).rejects.toThrow(/not balanced/);
      await expect(client.query("update ledger_accounts set balance = -1 where kind = 'savings'")).rejects.toThrow(/no_overdraft/);
    } finally {
      await client.end();
    }
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('checks every entry a statement writes, whether the entry or its postings come first, and leaves nothing behind', async () => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      const accounts = (await client.query("select id from ledger_accounts where owner_id is null and kind in ('bank_cash', 'bank_operations') order by kind"))
        .rows as Array<{ id: string }>;
      const [cash, operations] = accounts.map((row) => row.id);
      const before = (await client.query('select (select count(*) from journal_entries) as entries, (select count(*) from postings) as postings')).rows[0];
      // Entries and postings written by one statement, as the ledger writer does: the checks run when the whole statement has.
      const write = (lines: Array<[string | undefined, number]>, entries = 2) =>
        client.query(
          `with new_entries as (
             insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
             select gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', 'check ' || n, current_date, now(), 5 from generate_series(1, $1::integer) as n
             returning id, seq
           )
           insert into postings (entry_id, entry_seq, account_id, amount, balance_after)
           select e.id, e.seq, l.account, l.amount, 0 from new_entries e cross join unnest($2::uuid[], $3::bigint[]) as l(account, amount)`,
          [entries, lines.map((line) => line[0]), lines.map((line) => line[1])],
        );
      // Two entries, each with one posting of +5 and one of -4: neither sums to zero.
      await expect(
        write([
          [cash, 5],
          [operations, -4],
        ]),
      ).rejects.toThrow(/journal entry .* is not balanced \(sum 1, 2 postings\)/);
      // Each entry with a single posting.
      await expect(write([[cash, 5]])).rejects.toThrow(/not balanced \(sum 5, 1 postings\)/);
      // An entry written alone, its postings to follow in another statement: refused at once.
      await expect(
        client.query(
          "insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount) values (gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', 'alone', current_date, now(), 5)",
        ),
      ).rejects.toThrow(/not balanced \(sum 0, 0 postings\)/);
      // Texts past the ledger's limit are refused by the database itself: append-only rows could never be shortened.
      const long = 'x'.repeat(1001);
      const writeText = (column: 'description' | 'memo' | 'counterparty') =>
        client.query(
          `with new_entries as (
             insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
             values (gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', $3, current_date, now(), 5) returning id, seq
           )
           insert into postings (entry_id, entry_seq, account_id, amount, balance_after, memo, counterparty)
           select id, seq, l.account, l.amount, 0, $4, $5 from new_entries cross join unnest($1::uuid[], $2::bigint[]) as l(account, amount)`,
          [[cash, operations], [5, -5], ...(['description', 'memo', 'counterparty'] as const).map((name) => (name === column ? long : 'fine'))],
        );
      await expect(writeText('description')).rejects.toThrow(/journal_entries_description_length/);
      await expect(writeText('memo')).rejects.toThrow(/postings_memo_length/);
      await expect(writeText('counterparty')).rejects.toThrow(/postings_counterparty_length/);
      const after = (await client.query('select (select count(*) from journal_entries) as entries, (select count(*) from postings) as postings')).rows[0];
      expect(after).toEqual(before);
    } finally {
      await client.end();
    }
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('refuses a posting to an account or entry that does not exist, and deleting an account that has postings, even while the posting is uncommitted', async () => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    await other.connect();
    try {
      const [cash, operations] = (
        await client.query<{ id: string }>("select id from ledger_accounts where owner_id is null and kind in ('bank_cash', 'bank_operations') order by kind")
      ).rows.map((row) => row.id) as [string, string];
      const before = (await client.query('select (select count(*) from journal_entries) as entries, (select count(*) from postings) as postings')).rows[0];
      const write = (accounts: string[]) =>
        client.query(
          `with new_entry as (
             insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
             values (gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', 'references', current_date, now(), 5)
             returning id, seq
           )
           insert into postings (entry_id, entry_seq, account_id, amount, balance_after)
           select e.id, e.seq, l.account, l.amount, 0 from new_entry e cross join unnest($1::uuid[], array[5, -5]::bigint[]) as l(account, amount)`,
          [accounts],
        );
      const nowhere = '00000000-0000-4000-8000-000000000001';
      await expect(write([cash, nowhere])).rejects.toMatchObject({ code: '23503', message: expect.stringMatching(/account .* does not exist/) });
      // Postings of an entry that was never written (balanced among themselves).
      await expect(
        client.query(
          `insert into postings (entry_id, entry_seq, account_id, amount, balance_after)
           select $1::uuid, 1, l.account, l.amount, 0 from unnest($2::uuid[], array[5, -5]::bigint[]) as l(account, amount)`,
          [nowhere, [cash, operations]],
        ),
      ).rejects.toMatchObject({ code: '23503', message: expect.stringMatching(/journal entry .* does not exist/) });
      await expect(client.query('insert into ledger_unsealed (entry_id, seq, booked_at) values ($1, 1, now())', [nowhere])).rejects.toMatchObject({
        code: '23503',
      });
      await expect(
        client.query("insert into ledger_chain (position, entry_id, prev_hash, hash) values (1000000, $1, 'x', 'y')", [nowhere]),
      ).rejects.toMatchObject({
        code: '23503',
      });
      // Texts past the ledger's limit are refused by the database itself: append-only rows could never be shortened.
      const long = 'x'.repeat(1001);
      await expect(
        client.query(
          `with new_entries as (
             insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
             values (gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', $1, current_date, now(), 5) returning id, seq
           )
           insert into postings (entry_id, entry_seq, account_id, amount, balance_after) select id, seq, l.account, l.amount, 0 from new_entries cross join unnest($2::uuid[], $3::bigint[]) as l(account, amount)`,
          [long, [cash, operations], [5, -5]],
        ),
      ).rejects.toThrow(/journal_entries_description_length/);
      for (const column of ['memo', 'counterparty']) {
        await expect(
          client.query(
            `with new_entries as (
               insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
               values (gen_random_uuid(), nextval('journal_entries_seq'), 'adjustment', 'fine', current_date, now(), 5) returning id, seq
             )
             insert into postings (entry_id, entry_seq, account_id, amount, balance_after, ${column}) select id, seq, l.account, l.amount, 0, $1 from new_entries cross join unnest($2::uuid[], $3::bigint[]) as l(account, amount)`,
            [long, [cash, operations], [5, -5]],
          ),
        ).rejects.toThrow(new RegExp(`postings_${column}_length`));
      }
      const after = (await client.query('select (select count(*) from journal_entries) as entries, (select count(*) from postings) as postings')).rows[0];
      expect(after).toEqual(before);

      // A customer's account that has postings cannot be deleted.
      const checking = (await client.query("select id from ledger_accounts where kind = 'checking' and owner_id is not null and balance > 0 limit 1")).rows[0]
        .id as string;
      await expect(client.query('delete from ledger_accounts where id = $1', [checking])).rejects.toMatchObject({ code: '23503' });
      // An account without postings: a posting written in an open transaction keeps it from being
      // deleted by another (the delete waits for the posting's lock, as with a foreign key).
      const customer = await createCustomer(ctx);
      const fresh = (await client.query("select id from ledger_accounts where owner_id = $1 and kind = 'savings'", [customer.userId])).rows[0].id as string;
      await client.query('begin');
      await write([fresh, cash]);
      await other.query("set lock_timeout = '300ms'");
      await expect(other.query('delete from ledger_accounts where id = $1', [fresh])).rejects.toMatchObject({ code: '55P03' });
      await client.query('rollback');
      expect((await client.query('select count(*)::int as n from ledger_accounts where id = $1', [fresh])).rows[0].n).toBe(1);
    } finally {
      await client.end();
      await other.end();
    }
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('gives a new customer empty accounts', async () => {
    const customer = await createCustomer(ctx);
    const list = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data;
    expect(list).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
  });
});
