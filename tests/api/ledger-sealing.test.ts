import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryHash, GENESIS_HASH } from '../../src/server/ledger/chain';
import { bankAccountId, type EntryInput, postEntries } from '../../src/server/ledger/posting';
import { sealAll } from '../../src/server/ledger/sealer';
import { doneWithWritten, loadHashedEntries, storedForm, writtenEntry } from '../../src/server/ledger/written';
import { verifyLedger } from '../../src/server/ledger/verify';
import { chainedSince } from '../../src/server/notifications/ledger-notifier';
import * as notifications from '../../src/server/notifications/repository';
import { createCustomer, createTestApp, drainJobs, type TestContext } from '../support/app';

// The sealer hashes an entry this process has just written from what it wrote, not from a read of
// it (ADR 021, "Speed, sealing"). That is only right if what it wrote is exactly what a read gives:
// these entries carry what PostgreSQL could store differently from how it was sent.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

/** Two new customers' accounts and the bank's cash account. */
async function twoCustomers(prefix: string) {
  const db = ctx.database.db;
  const alex = await createCustomer(ctx, { email: `${prefix}.alex@example.com` });
  const jamie = await createCustomer(ctx, { email: `${prefix}.jamie@example.com` });
  const accountOf = async (userId: string, kind: 'savings' | 'checking') =>
    (await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', kind).executeTakeFirstOrThrow()).id;
  const [alexChecking, alexSavings, jamieChecking, cash] = await Promise.all([
    accountOf(alex.userId, 'checking'),
    accountOf(alex.userId, 'savings'),
    accountOf(jamie.userId, 'checking'),
    bankAccountId(db, 'bank_cash'),
  ]);
  return { alex, jamie, alexChecking, alexSavings, jamieChecking, cash };
}

/** The bank pays Alex $50, and Alex pays Jamie the rent: Jamie is to be told of it. */
function depositAndRent({ alex, alexChecking, jamieChecking, cash }: Awaited<ReturnType<typeof twoCustomers>>): EntryInput[] {
  return [
    {
      kind: 'adjustment',
      description: 'Deposit',
      authorId: null,
      postings: [
        { accountId: cash, amountCents: -50_00, counterparty: 'Bank adjustment' },
        { accountId: alexChecking, amountCents: 50_00, counterparty: 'Bank adjustment' },
      ],
    },
    {
      kind: 'transfer',
      description: 'Rent',
      authorId: alex.userId,
      postings: [
        { accountId: alexChecking, amountCents: -12_34, memo: 'Rent', counterparty: 'Jamie Lee' },
        { accountId: jamieChecking, amountCents: 12_34, memo: 'Transfer from Alex Morgan: Rent', counterparty: 'Alex Morgan' },
      ],
    },
  ];
}

describe('sealing from what was written', () => {
  it('hashes each written entry exactly as a read of it after the commit would, and declines what PostgreSQL respells', async () => {
    const db = ctx.database.db;
    const cash = await bankAccountId(db, 'bank_cash');
    const adjustments = await bankAccountId(db, 'bank_operations');
    const entry = (description: string, details: Record<string, unknown> | null, memo: string | null = null): EntryInput => ({
      kind: 'adjustment',
      description,
      authorId: null,
      details,
      postings: [
        { accountId: cash, amountCents: -1234, memo, counterparty: 'Bank adjustment' },
        { accountId: adjustments, amountCents: 1234, memo: null, counterparty: null },
      ],
    });
    const posted = await db.transaction().execute((trx) =>
      postEntries(trx, [
        entry('Plain', null),
        entry('Ünïcödé, "quotes", \\backslash\\ and emoji 💶', {
          b: 2,
          a: { z: [1, 2.5, null, 'x'], y: 1e21 },
          when: new Date('2026-11-25T10:00:00.123Z'),
          gone: undefined,
        }),
        entry('Key order and nesting', { list: [{ c: 3, b: 2 }], empty: {}, negativeZero: -0 }, 'A memo'),
        entry('A lone surrogate \ud800 here', null),
        entry('Its memo has one', null, 'memo \udc00'),
      ]),
    );
    const read = await loadHashedEntries(
      db,
      posted.map((one) => one.id),
    );
    const hashOf = (form: Parameters<typeof entryHash>[1]) => entryHash(GENESIS_HASH, form);
    const forms = posted.map(storedForm);
    // The first three are hashed from memory, each as its read hashes; the lone surrogates are sent
    // as U+FFFD, so those two are left to a read.
    expect(forms.map((form) => form !== null)).toEqual([true, true, true, false, false]);
    for (const [index, form] of forms.entries()) {
      if (!form) continue;
      const stored = read.get(posted[index]!.id);
      expect(stored).toBeDefined();
      expect(hashOf({ ...form, seq: 1 })).toBe(hashOf({ ...stored!, seq: 1 }));
    }
    // A reversal whose id was given in capitals is stored lowercased: not hashed from memory.
    const [original] = posted;
    const [reversal] = await db.transaction().execute((trx) =>
      postEntries(trx, [
        {
          ...entry('Reversal', null),
          kind: 'reversal',
          reversalOf: original!.id.toUpperCase(),
          postings: entry('', null).postings.map((line) => ({ ...line, amountCents: -line.amountCents })),
        },
      ]),
    );
    expect(storedForm(reversal!)).toBeNull();

    // Sealed (from memory where it could, from reads for the rest), the chain verifies.
    await sealAll(db);
    expect(await verifyLedger(db)).toMatchObject({ ok: true, unsealed: 0 });
  });

  it('notifies from what was written exactly as from a read, and forgets each entry once notified', async () => {
    const db = ctx.database.db;
    const customers = await twoCustomers('written');
    const { alex, jamie, alexChecking, alexSavings } = customers;
    await sealAll(db);
    const after = await notifications.chainHeadPosition(db);
    const posted = await db.transaction().execute((trx) =>
      postEntries(trx, [
        ...depositAndRent(customers),
        {
          kind: 'internal',
          description: 'To savings',
          authorId: alex.userId,
          postings: [
            { accountId: alexChecking, amountCents: -1_00 },
            { accountId: alexSavings, amountCents: 1_00 },
          ],
        },
      ]),
    );
    await sealAll(db);
    expect(posted.every((entry) => writtenEntry(entry.id) !== undefined)).toBe(true);
    const fromMemory = await chainedSince(db, after, 100);
    // What the positions hold, read straight from the tables.
    const read = (
      await sql<notifications.ChainedPosting>`
        select c.position::integer as position, c.entry_id, e.kind as entry_kind, e.description as entry_description, p.account_id,
               a.kind as account_kind, a.owner_id, p.amount, p.balance_after, p.memo, p.counterparty
        from ledger_chain c join journal_entries e on e.id = c.entry_id join postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
        where c.position > ${after} and c.position <= ${after + 100}
        order by c.position, p.id`.execute(db)
    ).rows;
    expect(fromMemory).toHaveLength(6);
    expect(fromMemory).toEqual(read);
    // The job notifies them (Jamie is told of the rent) and lets them go.
    await drainJobs(ctx);
    expect(posted.some((entry) => writtenEntry(entry.id) !== undefined)).toBe(false);
    const jamieHears = await db.selectFrom('notifications').select('title').where('user_id', '=', jamie.userId).where('kind', '=', 'money_received').execute();
    expect(jamieHears).toHaveLength(1);
    // Forgotten, the same positions are read: the same rows.
    expect(await chainedSince(db, after, 100)).toEqual(read);
  });

  it('holds what the sealer read for the money notifier, so entries another process wrote are read once, and lets them go once notified', async () => {
    const db = ctx.database.db;
    const customers = await twoCustomers('read');
    await sealAll(db);
    await drainJobs(ctx);
    const after = await notifications.chainHeadPosition(db);
    const posted = await db.transaction().execute((trx) => postEntries(trx, depositAndRent(customers)));
    const ids = posted.map((entry) => entry.id);
    // As a cluster's primary finds what its workers wrote: nothing of it in this process's memory.
    doneWithWritten(ids, 'notifier');
    expect(ids.some((id) => writtenEntry(id) !== undefined)).toBe(false);
    await sealAll(db);
    // The sealer read them, and holds them for the notifier, as stored.
    expect(ids.every((id) => writtenEntry(id) !== undefined)).toBe(true);
    const stored = await loadHashedEntries(db, ids);
    for (const id of ids) expect(writtenEntry(id)).toEqual(stored.get(id));
    expect(await verifyLedger(db)).toMatchObject({ ok: true, unsealed: 0 });
    // The notifier tells Jamie from them and lets them go.
    await drainJobs(ctx);
    expect(ids.some((id) => writtenEntry(id) !== undefined)).toBe(false);
    const jamieHears = await db
      .selectFrom('notifications')
      .select('title')
      .where('user_id', '=', customers.jamie.userId)
      .where('kind', '=', 'money_received')
      .execute();
    expect(jamieHears).toHaveLength(1);
    expect((await chainedSince(db, after, 100)).map((row) => row.entry_id)).toEqual([ids[0], ids[0], ids[1], ids[1]]);
  });

  it('catches an entry edited after its commit and before sealing: the chain holds what was written', async () => {
    const db = ctx.database.db;
    const cash = await bankAccountId(db, 'bank_cash');
    const adjustments = await bankAccountId(db, 'bank_operations');
    const [posted] = await db.transaction().execute((trx) =>
      postEntries(trx, [
        {
          kind: 'adjustment',
          description: 'Written this way',
          authorId: null,
          postings: [
            { accountId: cash, amountCents: -500 },
            { accountId: adjustments, amountCents: 500 },
          ],
        },
      ]),
    );
    // What a database superuser could do inside the window before the sealer runs.
    await db.transaction().execute(async (trx) => {
      await sql`alter table journal_entries disable trigger journal_entries_append_only`.execute(trx);
      await sql`update journal_entries set description = 'Edited' where id = ${posted!.id}`.execute(trx);
      await sql`alter table journal_entries enable trigger journal_entries_append_only`.execute(trx);
    });
    await sealAll(db);
    expect(await verifyLedger(db)).toMatchObject({ ok: false, entryId: posted!.id });
  });
});
