import type { DB } from '../db/database';
import { bankAccountId, type EntryInput } from './posting';

/** A new customer's opening balances as entries from the bank's cash account (demo customers). */
export async function openingEntries(trx: DB, userId: string, cents: { checking: number; savings: number }): Promise<EntryInput[]> {
  const cash = await bankAccountId(trx, 'bank_cash');
  const accounts = await trx.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', userId).execute();
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
  return entries;
}
