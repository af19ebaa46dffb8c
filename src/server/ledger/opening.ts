import { setOpeningBalancePoster } from '../seed';
import { bankAccountId, postEntries, type EntryInput } from './posting';

// Demo customers' opening balances are real entries from the bank's cash account, in the seed's transaction.
setOpeningBalancePoster(async (db, userId, cents) => {
  const cash = await bankAccountId(db, 'bank_cash');
  const accounts = await db.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', userId).execute();
  const entries: EntryInput[] = [];
  for (const kind of ['savings', 'checking'] as const) {
    const account = accounts.find((row) => row.kind === kind);
    const amount = cents[kind];
    if (!account || amount <= 0) continue;
    entries.push({
      kind: 'opening',
      description: `Opening balance (${kind})`,
      authorId: null,
      postings: [
        { accountId: cash, amountCents: -amount, counterparty: null },
        { accountId: account.id, amountCents: amount, counterparty: 'Opening deposit' },
      ],
    });
  }
  if (entries.length === 0) return;
  if (db.isTransaction) await postEntries(db, entries);
  else await db.transaction().execute((trx) => postEntries(trx, entries));
});
