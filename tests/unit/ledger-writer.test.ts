import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccountId, postEntries, type EntryInput } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { LedgerWriter } from '../../src/server/ledger/writer';
import { writtenEntry } from '../../src/server/ledger/written';
import { createCustomer, customerAccountIds, type TestContext, createTestApp } from '../support/app';

// The group-commit writer: one failing request never fails or stalls the others, staff entries
// posted beside it (the plain path) keep the chain whole, and overdrafts are refused one by one.
let ctx: TestContext;
let accounts: Array<{ savings: string; checking: string }>;
beforeAll(async () => {
  ctx = await createTestApp({ seedDemo: true });
  accounts = [];
  for (let index = 0; index < 3; index += 1) {
    const customer = await createCustomer(ctx);
    const ids = await customerAccountIds(ctx, customer.userId);
    accounts.push(ids);
    const cash = await bankAccountId(ctx.database.db, 'bank_cash');
    await ctx.database.db.transaction().execute((trx) =>
      postEntries(trx, [
        {
          kind: 'opening',
          description: 'Opening',
          authorId: null,
          postings: [
            { accountId: cash, amountCents: -10_000 },
            { accountId: ids.checking, amountCents: 10_000 },
          ],
        },
      ]),
    );
  }
});
afterAll(async () => ctx?.close());

const move = (who: number, cents: number): EntryInput => ({
  kind: 'internal',
  description: 'Move',
  authorId: null,
  postings: [
    { accountId: accounts[who]!.checking, amountCents: -cents },
    { accountId: accounts[who]!.savings, amountCents: cents },
  ],
});

describe('ledger writer', () => {
  it('isolates a failing request and keeps going', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        writer.submit({
          entry: move(index % 3, 100),
          answer: (posted) => {
            if (index === 4) throw new Error('answer builder failed');
            return { data: { entryId: posted.id }, created: true };
          },
          idempotency: null,
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(11);
    expect(results[4]).toMatchObject({ status: 'rejected' });
    // Nothing is stuck: later requests still post.
    await expect(writer.submit({ entry: move(0, 1), answer: () => ({ data: {}, created: true }), idempotency: null })).resolves.toMatchObject({
      created: true,
    });
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('refuses overdrafts one by one inside a batch and posts the rest', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const before = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', accounts[1]!.checking).executeTakeFirstOrThrow();
    const affordable = Math.floor(before.balance / 700);
    const results = await Promise.allSettled(
      Array.from({ length: affordable + 5 }, () => writer.submit({ entry: move(1, 700), answer: () => ({ data: {}, created: true }), idempotency: null })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(affordable);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refused.every((result) => (result.reason as Error).message === 'Insufficient funds')).toBe(true);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  // The writer posts from its book of balances without a locking read; a staff entry that moves a
  // balance behind its back must never let it post from the old balance.
  const balanceOf = async (id: string) =>
    (await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance;
  const staffEntry = (accountId: string, cents: number) =>
    bankAccountId(ctx.database.db, 'bank_operations').then((operations) =>
      ctx.database.db.transaction().execute((trx) =>
        postEntries(trx, [
          {
            kind: 'adjustment',
            description: 'Staff',
            authorId: null,
            postings: [
              { accountId: operations, amountCents: -cents },
              { accountId, amountCents: cents },
            ],
          },
        ]),
      ),
    );

  it('moves a balance from what it is, not from what its book says, after a staff debit', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    await writer.submit({ entry: move(0, 1), answer: () => ({ data: {}, created: true }), idempotency: null }); // the book now knows both accounts
    const checking = await balanceOf(accounts[0]!.checking);
    await staffEntry(accounts[0]!.checking, -(checking - 1_000)); // 1,000 cents left; the book still says `checking`
    await expect(writer.submit({ entry: move(0, 500), answer: () => ({ data: {}, created: true }), idempotency: null })).resolves.toMatchObject({
      created: true,
    });
    expect(await balanceOf(accounts[0]!.checking)).toBe(500);
    await expect(writer.submit({ entry: move(0, 600), answer: () => ({ data: {}, created: true }), idempotency: null })).rejects.toThrow('Insufficient funds');
    expect(await balanceOf(accounts[0]!.checking)).toBe(500);
    // The book is right again: the next payments take the one-statement way.
    const fromBookBefore = writer.stats.fromBook;
    await writer.submit({ entry: move(0, 499), answer: () => ({ data: {}, created: true }), idempotency: null });
    expect(writer.stats.fromBook).toBe(fromBookBefore + 1);
    expect(await balanceOf(accounts[0]!.checking)).toBe(1);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('posts a payment its book would refuse once a staff credit has brought the money', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    await writer.submit({ entry: move(0, 1), answer: () => ({ data: {}, created: true }), idempotency: null });
    const checking = await balanceOf(accounts[0]!.checking);
    await staffEntry(accounts[0]!.checking, 5_000);
    await expect(writer.submit({ entry: move(0, checking + 5_000), answer: () => ({ data: {}, created: true }), idempotency: null })).resolves.toMatchObject({
      created: true,
    });
    expect(await balanceOf(accounts[0]!.checking)).toBe(0);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('posts entries all together from its book in one statement, from locked balances once the book is stale, and none when one would overdraw', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const all = (count: number, cents: number) =>
      writer.postAll({
        entries: Array.from({ length: count }, () => move(1, cents)),
        answer: (posted) => ({ data: { ids: posted.map((entry) => entry.id) }, created: true }),
        idempotency: null,
      });
    await writer.submit({ entry: move(1, 1), answer: () => ({ data: {}, created: true }), idempotency: null }); // the book knows both accounts
    const start = await balanceOf(accounts[1]!.checking);
    const fromBookBefore = writer.stats.fromBook;
    await expect(all(3, 10)).resolves.toMatchObject({ data: { ids: expect.arrayContaining([expect.any(String)]) } });
    expect(writer.stats.fromBook).toBe(fromBookBefore + 1);
    expect(await balanceOf(accounts[1]!.checking)).toBe(start - 30);

    // A staff debit behind the book: the one statement posts nothing, the locked way posts from the real balance.
    await staffEntry(accounts[1]!.checking, -100);
    await expect(all(2, 10)).resolves.toMatchObject({ created: true });
    expect(await balanceOf(accounts[1]!.checking)).toBe(start - 30 - 100 - 20);
    // The book it set under locks is right: the next one takes the one-statement way again.
    const fromBookNow = writer.stats.fromBook;
    await all(1, 10);
    expect(writer.stats.fromBook).toBe(fromBookNow + 1);

    // Two entries the balance covers and a third it does not: none is posted.
    const left = await balanceOf(accounts[1]!.checking);
    const entriesBefore = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(all(3, Math.floor(left / 2) - 1)).rejects.toThrow('Insufficient funds');
    expect(await balanceOf(accounts[1]!.checking)).toBe(left);
    const entriesAfter = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(entriesAfter.n).toBe(entriesBefore.n);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('sends the next atomic posting while one posts: it waits on the locks they share and posts from the book once the first commits', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    /** The entries of every posting, known once built (the answer is built before the write leaves). */
    const built: string[] = [];
    const all = () =>
      writer.postAll({
        entries: [move(0, 5), move(0, 5)],
        answer: (posted) => {
          built.push(...posted.map((entry) => entry.id));
          return { data: { ids: posted.map((entry) => entry.id) }, created: true };
        },
        idempotency: null,
      });
    await staffEntry(accounts[0]!.checking, 1_000); // enough for what follows, whatever the tests before left
    await all(); // the book knows both accounts
    const start = await balanceOf(accounts[0]!.checking);
    const fromBookBefore = writer.stats.fromBook;
    const waitingOnLocks = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
            ctx.database.db,
          )
        ).rows[0]?.n,
      );
    const untilWaiting = async (count: number) => {
      for (let tries = 0; (await waitingOnLocks()) < count; tries += 1) {
        expect(tries, `${count} statement(s) wait on the lock`).toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const postings: Array<Promise<unknown>> = [];
    // Another transaction holds one of their accounts: both postings are sent and wait for it, the
    // second while the first is still waiting (so they queue for the locks in the order sent).
    await ctx.database.db.transaction().execute(async (trx) => {
      await sql`select id from ledger_accounts where id = ${accounts[0]!.savings} for update`.execute(trx);
      built.length = 0;
      postings.push(all());
      await untilWaiting(1);
      postings.push(all());
      await untilWaiting(2);
      // Already held for the sealer: a sealing round that finds them committed never reads them back.
      expect(built).toHaveLength(4);
      expect(built.every((id) => writtenEntry(id) !== undefined)).toBe(true);
    });
    await Promise.all(postings);
    // The second was computed from the book after the first, and found exactly those balances under the locks.
    expect(writer.stats.fromBook).toBe(fromBookBefore + 2);
    expect(await balanceOf(accounts[0]!.checking)).toBe(start - 20);

    // A staff debit behind the book: the first finds another balance and posts under locks, and so does the one sent behind it.
    await staffEntry(accounts[0]!.checking, -100);
    await Promise.all([all(), all()]);
    expect(await balanceOf(accounts[0]!.checking)).toBe(start - 20 - 100 - 20);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('interleaves with entries posted the plain way (the chain head moves under it)', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const staff = Array.from({ length: 10 }, () => staffEntry(accounts[2]!.savings, 50));
    const payments = Array.from({ length: 40 }, () => writer.submit({ entry: move(2, 10), answer: () => ({ data: {}, created: true }), idempotency: null }));
    await Promise.all([...staff, ...payments]);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
    const savings = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', accounts[2]!.savings).executeTakeFirstOrThrow();
    expect(savings.balance).toBe(4 * 100 + 10 * 50 + 40 * 10);
  });
});

describe('ledger writer with batches in flight', () => {
  it("keeps two batches in flight on different accounts, one account's entries in order, and every balance and refusal exact", async () => {
    const warnings: string[] = [];
    const writer = new LedgerWriter(ctx.database.db, {
      batchesInFlight: 2,
      log: { warn: (details, message) => warnings.push(`${message} ${String((details as { err?: Error }).err?.message)}`) },
    });
    const who = [1, 2];
    const checkingOf = async (index: number) =>
      Number(
        (await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', accounts[index]!.checking).executeTakeFirstOrThrow()).balance,
      );
    const before = await Promise.all(who.map(checkingOf));
    // Waves of payments from two customers' accounts, each wave while the one before is posting.
    // Each account can afford only some of its payments: the rest must be refused, none may overdraw.
    const each = before.map((balance) => Math.floor(balance / 60) + 1);
    const results = who.map(() => [] as Array<Promise<string>>);
    for (let wave = 0; wave < 20; wave += 1) {
      for (let index = 0; index < 5; index += 1) {
        who.forEach((customer, slot) =>
          results[slot]!.push(
            writer.submit({ entry: move(customer, each[slot]!), answer: () => ({ data: {}, created: true }), idempotency: null }).then(
              () => 'posted',
              (error: Error) => error.message,
            ),
          ),
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const [slot, customer] of who.entries()) {
      const outcomes = await Promise.all(results[slot]!);
      const posted = outcomes.filter((outcome) => outcome === 'posted').length;
      expect(posted).toBe(Math.floor(before[slot]! / each[slot]!));
      expect(outcomes.filter((outcome) => outcome !== 'posted')).toEqual(Array.from({ length: 100 - posted }, () => 'Insufficient funds'));
      // In order: every payment the account could afford came first, the refusals after.
      expect(outcomes.slice(0, posted).every((outcome) => outcome === 'posted')).toBe(true);
      expect(await checkingOf(customer)).toBe(before[slot]! - posted * each[slot]!);
    }
    await writer.close();
    expect(writer.stats.maxInFlight).toBe(2);
    // Batches in flight never share an account, so none ever finds a balance moved under it (the
    // statement's guard, a division by zero); a batch of refusals only is confirmed under locks.
    expect(warnings.filter((warning) => !warning.includes('refusals from the book are confirmed under locks'))).toEqual([]);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('sends the next batch to the database before answering the requests of the one that committed', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const pay = () => writer.submit({ entry: move(2, 1), answer: () => ({ data: {}, created: true }), idempotency: null });
    await pay(); // the book knows the accounts again (the writer above moved them): one statement a batch
    await new Promise((resolve) => setImmediate(resolve)); // and is idle
    const first = pay(); // starts a batch at once
    const startedBefore = writer.stats.batches;
    const queued = [pay(), pay()]; // wait for it, and go together in the next
    expect(writer.stats.batches).toBe(startedBefore);
    const startedWhenAnswered = await first.then(() => writer.stats.batches);
    expect(startedWhenAnswered).toBe(startedBefore + 1);
    await Promise.all(queued);
  });

  it('sends the next atomic posting before answering the one that committed, holding its entries for the sealer by then, details as given', async () => {
    const writer = ctx.context.ledger as LedgerWriter;
    const all = (details: Record<string, unknown> | null) =>
      writer.postAll({
        entries: [{ ...move(2, 1), details }, move(2, 1)],
        answer: (posted) => ({ data: { ids: posted.map((entry) => entry.id) }, created: true }),
        idempotency: null,
      });
    await all(null); // the book knows the accounts: the next ones go in one statement each
    const startedBefore = writer.stats.atomics;
    const first = all({ bulk: { batchId: 'b-1', row: 1 }, note: 'quote " and \\ backslash' });
    const second = all(null);
    const [startedWhenAnswered, heldWhenAnswered, ids] = await first.then((outcome) => {
      const { ids } = outcome.data as { ids: string[] };
      return [writer.stats.atomics, ids.every((id) => writtenEntry(id) !== undefined), ids] as const;
    });
    expect(startedWhenAnswered).toBe(startedBefore + 2);
    expect(heldWhenAnswered).toBe(true);
    await second;
    const stored = await ctx.database.db.selectFrom('journal_entries').select(['id', 'details']).where('id', 'in', ids).execute();
    expect(new Map(stored.map((row) => [row.id, row.details]))).toEqual(
      new Map([
        [ids[0], { bulk: { batchId: 'b-1', row: 1 }, note: 'quote " and \\ backslash' }],
        [ids[1], null],
      ]),
    );
  });

  it('runs an exclusive transaction alone: after the batches before it, before the ones after it', async () => {
    const writer = new LedgerWriter(ctx.database.db, { batchesInFlight: 2 });
    const order: string[] = [];
    const first = Array.from({ length: 3 }, () =>
      writer.submit({ entry: move(2, 1), answer: () => ({ data: {}, created: true }), idempotency: null }).then(() => order.push('batch before')),
    );
    const exclusive = writer.transaction(async (trx) => {
      order.push('exclusive');
      await trx.selectFrom('ledger_accounts').select('id').limit(1).execute();
    });
    const later = writer.submit({ entry: move(2, 1), answer: () => ({ data: {}, created: true }), idempotency: null }).then(() => order.push('batch after'));
    await Promise.all([...first, exclusive, later]);
    await writer.close();
    expect(order).toEqual(['batch before', 'batch before', 'batch before', 'exclusive', 'batch after']);
  });
});

describe('ledger writer, with a balance changed behind the ledger', () => {
  // Every legitimate balance change is an entry and moves the chain head, which the writer also
  // checks; this one bypasses the ledger (as a bug or a hand edit would), so only the writer's
  // balance check can see it. A database of its own, since verify must then report it.
  it('never writes a balance from its book when the balance changed without an entry', async () => {
    const own = await createTestApp({ seedDemo: true });
    try {
      const customer = await createCustomer(own);
      const rows = await own.database.db.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', customer.userId).execute();
      const checking = rows.find((row) => row.kind === 'checking')!.id;
      const savings = rows.find((row) => row.kind === 'savings')!.id;
      const cash = await bankAccountId(own.database.db, 'bank_cash');
      await own.database.db.transaction().execute((trx) =>
        postEntries(trx, [
          {
            kind: 'opening',
            description: 'Opening',
            authorId: null,
            postings: [
              { accountId: cash, amountCents: -1_000 },
              { accountId: checking, amountCents: 1_000 },
            ],
          },
        ]),
      );
      const writer = own.context.ledger as LedgerWriter;
      const pay = (cents: number) =>
        writer.submit({
          entry: {
            kind: 'internal',
            description: 'Move',
            authorId: null,
            postings: [
              { accountId: checking, amountCents: -cents },
              { accountId: savings, amountCents: cents },
            ],
          },
          answer: () => ({ data: {}, created: true }),
          idempotency: null,
        });
      await pay(1); // the writer's book: checking 999
      await own.database.db.updateTable('ledger_accounts').set({ balance: 1_006 }).where('id', '=', checking).execute();
      const fromBook = writer.stats.fromBook;
      await pay(2);
      expect(writer.stats.fromBook).toBe(fromBook); // the one-statement write was refused...
      const balance = await own.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', checking).executeTakeFirstOrThrow();
      expect(balance.balance).toBe(1_004); // ...and the retry moved the balance as it is, not as the book had it (997)
      expect(await verifyLedger(own.database.db)).toMatchObject({ ok: false }); // the hand edit itself shows
    } finally {
      await own.close();
    }
  });
});
