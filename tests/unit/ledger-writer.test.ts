import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccountId, postEntries, type EntryInput } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { ledgerWriter } from '../../src/server/ledger/writer';
import { createCustomer, type TestContext, createTestApp } from '../support/app';

// The group-commit writer: one failing request never fails or stalls the others, staff entries
// posted beside it (the plain path) keep the chain whole, and overdrafts are refused one by one.
let ctx: TestContext;
let accounts: Array<{ savings: string; checking: string }>;
beforeAll(async () => {
  ctx = await createTestApp({ seedDemo: true });
  accounts = [];
  for (let index = 0; index < 3; index += 1) {
    const customer = await createCustomer(ctx);
    const rows = await ctx.database.db.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', customer.userId).execute();
    const ids = { savings: rows.find((row) => row.kind === 'savings')!.id, checking: rows.find((row) => row.kind === 'checking')!.id };
    accounts.push(ids);
    const cash = await bankAccountId(ctx.database.db, 'bank_cash');
    await ctx.database.db.transaction().execute((trx) => postEntries(trx, [{ kind: 'opening', description: 'Opening', authorId: null, postings: [{ accountId: cash, amountCents: -10_000 }, { accountId: ids.checking, amountCents: 10_000 }] }]));
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
    const writer = ledgerWriter(ctx.database.db);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        writer.submit({
          entry: move(index % 3, 100),
          answer: (posted) => {
            if (index === 4) throw new Error('answer builder failed');
            return { status: 201, body: { entryId: posted.id } };
          },
          idempotency: null,
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(11);
    expect(results[4]).toMatchObject({ status: 'rejected' });
    // Nothing is stuck: later requests still post.
    await expect(writer.submit({ entry: move(0, 1), answer: () => ({ status: 201, body: {} }), idempotency: null })).resolves.toMatchObject({ status: 201 });
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('refuses overdrafts one by one inside a batch and posts the rest', async () => {
    const writer = ledgerWriter(ctx.database.db);
    const before = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', accounts[1]!.checking).executeTakeFirstOrThrow();
    const affordable = Math.floor(before.balance / 700);
    const results = await Promise.allSettled(Array.from({ length: affordable + 5 }, () => writer.submit({ entry: move(1, 700), answer: () => ({ status: 201, body: {} }), idempotency: null })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(affordable);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refused.every((result) => (result.reason as Error).message === 'Insufficient funds')).toBe(true);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('interleaves with entries posted the plain way (the chain head moves under it)', async () => {
    const writer = ledgerWriter(ctx.database.db);
    const operations = await bankAccountId(ctx.database.db, 'bank_operations');
    const staff = Array.from({ length: 10 }, () =>
      ctx.database.db.transaction().execute((trx) =>
        postEntries(trx, [{ kind: 'adjustment', description: 'Staff', authorId: null, postings: [{ accountId: operations, amountCents: -50 }, { accountId: accounts[2]!.savings, amountCents: 50 }] }]),
      ),
    );
    const payments = Array.from({ length: 40 }, () => writer.submit({ entry: move(2, 10), answer: () => ({ status: 201, body: {} }), idempotency: null }));
    await Promise.all([...staff, ...payments]);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
    const savings = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', accounts[2]!.savings).executeTakeFirstOrThrow();
    expect(savings.balance).toBe(4 * 100 + 10 * 50 + 40 * 10);
  });
});
