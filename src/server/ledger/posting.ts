import { sql } from 'kysely';
import type { DB } from '../db/database';
import type { EntryKind } from '../db/schema';
import { AppError, assert } from '../http/errors';
import { entryHash } from './chain';
import { uuidv7 } from './uuid';

export interface PostingInput {
  accountId: string;
  /** Signed cents: positive raises the account's balance. */
  amountCents: number;
  /** What the account's owner sees, when it differs from the entry's description. */
  memo?: string | null;
  counterparty?: string | null;
}

export interface EntryInput {
  kind: EntryKind;
  description: string;
  /** YYYY-MM-DD; the booking date (UTC) when omitted. */
  valueDate?: string;
  authorId: string | null;
  reversalOf?: string | null;
  details?: Record<string, unknown> | null;
  postings: PostingInput[];
}

export interface PostedPosting {
  accountId: string;
  amountCents: number;
  balanceAfterCents: number;
  memo: string | null;
  counterparty: string | null;
}

export interface PostedEntry {
  id: string;
  seq: number;
  kind: EntryKind;
  description: string;
  valueDate: string;
  bookedAt: Date;
  authorId: string | null;
  amountCents: number;
  reversalOf: string | null;
  details: Record<string, unknown> | null;
  prevHash: string;
  hash: string;
  postings: PostedPosting[];
}

/** An entry would take a customer account below zero. `entryIndex` says which of the batch. */
export class InsufficientFundsError extends AppError {
  constructor(
    public readonly entryIndex: number,
    public readonly accountId: string,
  ) {
    super('insufficient_funds', 'Insufficient funds');
  }
}

export const ENTRIES_PER_CALL_MAX = 1000;

function checkEntry(entry: EntryInput): number {
  assert(entry.postings.length >= 2, 'an entry has at least two postings');
  let sum = 0;
  let moved = 0;
  const seen = new Set<string>();
  for (const posting of entry.postings) {
    assert(Number.isSafeInteger(posting.amountCents) && posting.amountCents !== 0, 'a posting moves a whole, non-zero number of cents');
    assert(!seen.has(posting.accountId), 'an entry touches an account once');
    seen.add(posting.accountId);
    sum += posting.amountCents;
    if (posting.amountCents > 0) moved += posting.amountCents;
  }
  assert(sum === 0, 'the postings of an entry sum to zero');
  return moved;
}

/**
 * Posts entries inside the caller's transaction: locks every touched account in id order, checks
 * that no account that may not go negative would, then appends the entries to the hash chain and
 * moves the balances. All entries commit together or none does. Nothing here assumes one entry
 * per transaction: a batch of many entries takes each lock once.
 */
export async function postEntries(trx: DB, entries: EntryInput[]): Promise<PostedEntry[]> {
  assert(trx.isTransaction, 'postEntries runs inside a transaction');
  assert(entries.length > 0 && entries.length <= ENTRIES_PER_CALL_MAX, 'a batch holds 1 to 1000 entries');
  const movedCents = entries.map(checkEntry);

  const accountIds = [...new Set(entries.flatMap((entry) => entry.postings.map((posting) => posting.accountId)))].sort();
  const rows = await trx
    .selectFrom('ledger_accounts')
    .select(['id', 'balance', 'allow_negative'])
    .where('id', 'in', accountIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  assert(rows.length === accountIds.length, 'every posted account exists');
  const accounts = new Map(rows.map((row) => [row.id, { balance: row.balance, allowNegative: row.allow_negative }]));

  const balancesAfter: number[][] = [];
  entries.forEach((entry, entryIndex) => {
    balancesAfter.push(
      entry.postings.map((posting) => {
        const account = accounts.get(posting.accountId);
        assert(account, 'account locked');
        const next = account.balance + posting.amountCents;
        assert(Number.isSafeInteger(next), 'balance stays a safe integer');
        if (next < 0 && !account.allowNegative) throw new InsufficientFundsError(entryIndex, posting.accountId);
        account.balance = next;
        return next;
      }),
    );
  });

  // The chain head is locked last, after the accounts, by every writer: no lock cycle is possible.
  const head = await sql<{ seq: string | number; hash: string }>`select seq, hash from ledger_chain_head where id = 1 for update`.execute(trx);
  const headRow = head.rows[0];
  assert(headRow, 'the chain head exists');
  let seq = Number(headRow.seq);
  let prevHash = headRow.hash;
  const bookedAt = new Date();
  const today = bookedAt.toISOString().slice(0, 10);

  const posted: PostedEntry[] = entries.map((entry, entryIndex) => {
    seq += 1;
    const postings = entry.postings.map((posting, postingIndex) => ({
      accountId: posting.accountId,
      amountCents: posting.amountCents,
      balanceAfterCents: balancesAfter[entryIndex]?.[postingIndex] ?? Number.NaN,
      memo: posting.memo ?? null,
      counterparty: posting.counterparty ?? null,
    }));
    const base = {
      id: uuidv7(bookedAt.getTime()),
      seq,
      kind: entry.kind,
      description: entry.description,
      valueDate: entry.valueDate ?? today,
      bookedAt,
      authorId: entry.authorId,
      amountCents: movedCents[entryIndex] ?? 0,
      reversalOf: entry.reversalOf ?? null,
      details: entry.details ?? null,
      postings,
    };
    const hash = entryHash(prevHash, base);
    const result: PostedEntry = { ...base, prevHash, hash };
    prevHash = hash;
    return result;
  });

  await trx
    .insertInto('journal_entries')
    .values(
      posted.map((entry) => ({
        id: entry.id,
        seq: entry.seq,
        kind: entry.kind,
        description: entry.description,
        value_date: entry.valueDate,
        booked_at: entry.bookedAt,
        author_id: entry.authorId,
        amount: entry.amountCents,
        reversal_of: entry.reversalOf,
        details: entry.details === null ? null : JSON.stringify(entry.details),
        prev_hash: entry.prevHash,
        hash: entry.hash,
      })),
    )
    .execute();
  await trx
    .insertInto('postings')
    .values(
      posted.flatMap((entry) =>
        entry.postings.map((posting) => ({
          entry_id: entry.id,
          entry_seq: entry.seq,
          account_id: posting.accountId,
          amount: posting.amountCents,
          balance_after: posting.balanceAfterCents,
          memo: posting.memo,
          counterparty: posting.counterparty,
        })),
      ),
    )
    .execute();
  const finalBalances = accountIds.map((id) => sql`(${id}::uuid, ${accounts.get(id)?.balance ?? 0}::bigint)`);
  await sql`update ledger_accounts as account set balance = moved.balance
    from (values ${sql.join(finalBalances)}) as moved(id, balance) where account.id = moved.id`.execute(trx);
  await sql`update ledger_chain_head set seq = ${seq}, hash = ${prevHash} where id = 1`.execute(trx);
  return posted;
}

/** Bank accounts by kind (cash, operations adjustments, external clearing...). */
export async function bankAccountId(db: DB, kind: 'bank_cash' | 'bank_operations' | 'external_clearing' | 'loans_receivable'): Promise<string> {
  const row = await db.selectFrom('ledger_accounts').select('id').where('kind', '=', kind).where('owner_id', 'is', null).executeTakeFirst();
  assert(row, `bank account ${kind} exists`);
  return row.id;
}
