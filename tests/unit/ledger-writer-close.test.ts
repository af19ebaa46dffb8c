import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/lib/errors';
import { bankAccountId, type EntryInput } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { LedgerWriter, WRITER_CLOSED_MESSAGE } from '../../src/server/ledger/writer';
import { createTestApp, type TestContext } from '../support/app';

// At shutdown the writer is closed after the HTTP side: what it accepted is committed before the
// pool closes, and nothing new is taken.
let ctx: TestContext;
let cash: string;
let operations: string;
beforeAll(async () => {
  ctx = await createTestApp();
  cash = await bankAccountId(ctx.database.db, 'bank_cash');
  operations = await bankAccountId(ctx.database.db, 'bank_operations');
});
afterAll(async () => ctx?.close());

const entry = (cents: number): EntryInput => ({
  kind: 'opening',
  description: 'Drain test',
  authorId: null,
  postings: [
    { accountId: cash, amountCents: -cents },
    { accountId: operations, amountCents: cents },
  ],
});

describe('closing the ledger writer', () => {
  it('commits everything queued before it settles, then refuses new work with 503', async () => {
    const writer = new LedgerWriter(ctx.database.db);
    const queued = Array.from({ length: 40 }, (_, index) =>
      writer.submit({ entry: entry(index + 1), answer: () => ({ data: {}, created: true }), idempotency: null }),
    );
    const exclusive = writer.transaction(async (_trx, post) => (await post([entry(1000)])).length);
    // A bulk payment's kind of posting, answered once the next work is on its way: answered too.
    const atomic = writer.postAll({ entries: [entry(500), entry(501)], answer: (posted) => ({ data: posted.length, created: true }), idempotency: null });
    let settled = 0;
    for (const promise of [...queued, exclusive, atomic]) void promise.then(() => (settled += 1));
    await writer.close();
    await Promise.resolve();
    expect(settled).toBe(42);
    await expect(Promise.all(queued)).resolves.toHaveLength(40);
    await expect(exclusive).resolves.toBe(1);
    await expect(atomic).resolves.toMatchObject({ data: 2 });

    const late = writer.submit({ entry: entry(1), answer: () => ({ data: {}, created: true }), idempotency: null });
    await expect(late).rejects.toBeInstanceOf(AppError);
    await expect(late).rejects.toMatchObject({ code: 'unavailable', message: WRITER_CLOSED_MESSAGE });
    const entries = await ctx.database.db.selectFrom('journal_entries').select('id').where('description', '=', 'Drain test').execute();
    expect(entries).toHaveLength(43);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('settles at once when nothing is queued', async () => {
    await expect(new LedgerWriter(ctx.database.db).close()).resolves.toBeUndefined();
  });
});
