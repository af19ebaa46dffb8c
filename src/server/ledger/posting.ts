import { sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { EntryKind, LedgerAccountKind } from '../db/schema';
import { AppError, assert } from '../lib/errors';
import { bankDate } from '../lib/bank-time';
import { rememberWritten } from './written';
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
  /** YYYY-MM-DD; the bank's date of the booking (BANK_TIMEZONE) when omitted. */
  valueDate?: string;
  authorId: string | null;
  reversalOf?: string | null;
  details?: Record<string, unknown> | null;
  postings: PostingInput[];
}

export interface PostedPosting {
  /** The posting's id (a customer's history line id). */
  id: string;
  accountId: string;
  amountCents: number;
  balanceAfterCents: number;
  memo: string | null;
  counterparty: string | null;
}

export interface PostedEntry {
  id: string;
  /** The order the entry was applied in (not its chain position: the sealer chains it later). */
  seq: number;
  kind: EntryKind;
  description: string;
  valueDate: string;
  bookedAt: Date;
  authorId: string | null;
  amountCents: number;
  reversalOf: string | null;
  details: Record<string, unknown> | null;
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
 * that no account that may not go negative would, then writes the entries, their postings and the
 * new balances, and queues the entries for the sealer (which chains them). All entries commit
 * together or none does. Nothing here assumes one entry per transaction: a batch of many entries
 * takes each lock once.
 */
export async function postEntries(trx: DB, entries: EntryInput[], options: Omit<BatchOptions, 'skipUnaffordable'> = {}): Promise<PostedEntry[]> {
  const posted = await postBatch(trx, entries, { ...options, skipUnaffordable: false });
  return posted.map((entry) => {
    assert(entry, 'every entry posted');
    return entry;
  });
}

/**
 * As postEntries, but an entry that would overdraw an account is left out (null in its place)
 * instead of failing the batch: the group-commit writer answers it 'Insufficient funds' alone.
 */
export async function postEntriesLenient(
  trx: DB,
  entries: EntryInput[],
  options: Omit<BatchOptions, 'skipUnaffordable'> = {},
): Promise<Array<PostedEntry | null>> {
  return postBatch(trx, entries, { ...options, skipUnaffordable: true });
}

/** An idempotency record written in the same statement as the entries it answers for. */
export interface IdempotencyRow {
  userId: string;
  key: string;
  requestHash: string;
  status: number;
  response: unknown;
  entryId: string | null;
}

export interface BatchOptions {
  skipUnaffordable: boolean;
  /** The booking time (the writer's clock); now by default. */
  now?: Date | undefined;
  /** BANK_TIMEZONE: an entry without a value date takes the bank's date of its booking (UTC's by default). */
  timeZone?: string | undefined;
  /** Rows to store with the entries, built once the entries (and their posting ids) are known. */
  extraRows?: (posted: Array<PostedEntry | null>) => IdempotencyRow[];
  /**
   * The caller's book of balances (the group-commit writer's), given the batch's new balances as
   * soon as they are computed. Outside a transaction, with every touched account in it, the batch
   * is computed from the book instead of a locking read, and written in one autocommit statement
   * that locks the accounts in id order and posts only if each balance is still exactly the
   * book's; otherwise it fails whole (StaleBookError) and the caller retries with locks.
   */
  book?: Map<string, BookedAccount>;
}

export interface BookedAccount {
  balance: number;
  allowNegative: boolean;
}

/** A batch computed from the book refused every entry: only a locking read may say 'Insufficient funds'. */
export class UnconfirmedRefusalError extends Error {
  constructor() {
    super('refusals from the book are confirmed under locks');
  }
}

async function lockedBalances(trx: DB, accountIds: string[]): Promise<Map<string, BookedAccount>> {
  // One round trip takes every lock, in id order: every writer takes them in this order, so no
  // two transactions can wait on each other in a cycle.
  const query = sql<{ id: string; balance: number; allow_negative: boolean }>`
    select id, balance, allow_negative from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update`;
  const rows = (await trx.executeQuery(prepared(query.compile(trx)))).rows;
  assert(rows.length === accountIds.length, 'every posted account exists');
  return new Map(rows.map((row) => [row.id, { balance: Number(row.balance), allowNegative: row.allow_negative === true }]));
}

async function postBatch(trx: DB, entries: EntryInput[], options: BatchOptions): Promise<Array<PostedEntry | null>> {
  const skipUnaffordable = options.skipUnaffordable;
  const fromBook = !trx.isTransaction;
  assert(!fromBook || options.book, 'only the writer posts from its book, outside a transaction');
  assert(entries.length > 0 && entries.length <= ENTRIES_PER_CALL_MAX, 'a batch holds 1 to 1000 entries');
  const movedCents = entries.map(checkEntry);

  const accountIds = [...new Set(entries.flatMap((entry) => entry.postings.map((posting) => posting.accountId)))].sort();
  const book = options.book;
  let accounts: Map<string, BookedAccount>;
  if (fromBook && book) {
    accounts = new Map(
      accountIds.map((id) => {
        const known = book.get(id);
        assert(known, 'every account of a batch posted from the book is in it');
        return [id, { ...known }];
      }),
    );
  } else {
    accounts = await lockedBalances(trx, accountIds);
  }
  // What the write checks each balance against, under its lock.
  const balancesBefore = accountIds.map((id) => accounts.get(id)?.balance ?? 0);

  // Apply the entries in order, in memory; an entry that would overdraw is refused whole.
  const balancesAfter: Array<number[] | null> = entries.map((entry, entryIndex) => {
    for (const posting of entry.postings) {
      const account = accounts.get(posting.accountId);
      assert(account, 'account locked');
      const next = account.balance + posting.amountCents;
      assert(Number.isSafeInteger(next), 'balance stays a safe integer');
      if (next < 0 && !account.allowNegative) {
        if (skipUnaffordable) return null;
        throw new InsufficientFundsError(entryIndex, posting.accountId);
      }
    }
    return entry.postings.map((posting) => {
      const account = accounts.get(posting.accountId);
      assert(account, 'account locked');
      account.balance += posting.amountCents;
      return account.balance;
    });
  });
  if (fromBook && balancesAfter.every((balances) => balances === null)) throw new UnconfirmedRefusalError();
  if (book) for (const id of accountIds) book.set(id, { ...(accounts.get(id) as BookedAccount) });
  if (balancesAfter.every((balances) => balances === null)) return entries.map(() => null);

  const bookedAt = options.now ?? new Date();
  const today = bankDate(bookedAt, options.timeZone ?? 'UTC');
  const results: Array<PostedEntry | null> = entries.map((entry, entryIndex) => {
    const balances = balancesAfter[entryIndex];
    if (!balances) return null;
    return {
      id: uuidv7(bookedAt.getTime()),
      seq: 0,
      kind: entry.kind,
      description: entry.description,
      valueDate: entry.valueDate ?? today,
      bookedAt,
      authorId: entry.authorId,
      amountCents: movedCents[entryIndex] ?? 0,
      reversalOf: entry.reversalOf ?? null,
      details: entry.details ?? null,
      postings: entry.postings.map((posting, postingIndex) => ({
        id: uuidv7(bookedAt.getTime()),
        accountId: posting.accountId,
        amountCents: posting.amountCents,
        balanceAfterCents: balances[postingIndex] ?? Number.NaN,
        memo: posting.memo ?? null,
        counterparty: posting.counterparty ?? null,
      })),
    };
  });
  const posted = results.filter((entry): entry is PostedEntry => entry !== null);
  const extraRows = options.extraRows?.(results) ?? [];

  // One statement writes the entries, their postings, the new balances, the sealer's queue and
  // the callers' idempotency records: one round trip. No row is shared by every writer (the hash
  // chain is sealed afterwards), so writers touching other accounts never wait for each other. Its
  // text is the same for any batch (the rows travel as arrays), so it is prepared: planned once
  // per connection.
  const postingsOf = posted.flatMap((entry) => entry.postings.map((posting) => ({ entry, posting })));
  const writeQuery = sql<{ guard: number; entries: Array<[string, number]> | null }>`
  with locked as materialized (
    -- Every lock in id order, and each balance as it is once its lock is held: a statement that
    -- waited for another writer's commit reads that commit here (FOR UPDATE answers the newest row
    -- version), where its own snapshot, and so an UPDATE's WHERE, still holds the balance before it.
    select id, balance from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update
  ), unchanged as materialized (
    -- Each balance moves only from exactly the balance the batch was computed from: a stale book posts nothing.
    select count(*) = ${accountIds.length}::integer as ok
    from locked join unnest(${accountIds}::uuid[], ${balancesBefore}::bigint[]) as target(id, before) on target.id = locked.id and locked.balance = target.before
  ), moved as (
    update ledger_accounts as account set balance = target.after
    from unnest(${accountIds}::uuid[], ${accountIds.map((id) => accounts.get(id)?.balance ?? 0)}::bigint[]) as target(id, after)
    where account.id = target.id and (select ok from unchanged)
    returning account.id
  ), new_entries as (
    -- After the balances moved (so under every lock): seq then orders each account's postings
    -- as their running balances were computed, whichever process wrote them.
    insert into journal_entries (id, seq, kind, description, value_date, booked_at, author_id, amount, reversal_of, details)
    select batch.id, nextval('journal_entries_seq'), batch.kind, batch.description, batch.value_date, ${bookedAt.toISOString()}::timestamptz, batch.author_id, batch.amount, batch.reversal_of, nullif(batch.details, 'null'::jsonb)
    from (
      -- The details travel as one JSON array (a jsonb[] parameter is every element escaped and
      -- unescaped again, then parsed: twice the time for a bulk batch's 1,000), JSON null for none.
      select * from rows from (unnest(${posted.map((entry) => entry.id)}::uuid[]), unnest(${posted.map((entry) => entry.kind)}::text[]),
        unnest(${posted.map((entry) => entry.description)}::text[]), unnest(${posted.map((entry) => entry.valueDate)}::date[]),
        unnest(${posted.map((entry) => entry.authorId)}::uuid[]), unnest(${posted.map((entry) => entry.amountCents)}::bigint[]), unnest(${posted.map((entry) => entry.reversalOf)}::uuid[]),
        jsonb_array_elements(${JSON.stringify(posted.map((entry) => entry.details))}::jsonb))
        with ordinality as rows(id, kind, description, value_date, author_id, amount, reversal_of, details, position)
      where (select count(*) from moved) = ${accountIds.length}::integer
      order by rows.position
    ) as batch
    returning id, seq, booked_at
  ), new_postings as (
    insert into postings (id, entry_id, entry_seq, account_id, amount, balance_after, memo, counterparty)
    select lines.id, lines.entry_id, new_entries.seq, lines.account_id, lines.amount, lines.balance_after, lines.memo, lines.counterparty
    from unnest(${postingsOf.map((row) => row.posting.id)}::uuid[], ${postingsOf.map((row) => row.entry.id)}::uuid[],
      ${postingsOf.map((row) => row.posting.accountId)}::uuid[], ${postingsOf.map((row) => row.posting.amountCents)}::bigint[], ${postingsOf.map((row) => row.posting.balanceAfterCents)}::bigint[],
      ${postingsOf.map((row) => row.posting.memo)}::text[], ${postingsOf.map((row) => row.posting.counterparty)}::text[])
      as lines(id, entry_id, account_id, amount, balance_after, memo, counterparty)
    join new_entries on new_entries.id = lines.entry_id
  ), new_unsealed as (
    insert into ledger_unsealed (entry_id, seq, booked_at) select id, seq, booked_at from new_entries
  ), new_keys as (
    insert into idempotency_keys (user_id, key, request_hash, status_code, response, entry_id)
    select * from rows from (unnest(${extraRows.map((row) => row.userId)}::uuid[]), unnest(${extraRows.map((row) => row.key)}::text[]), unnest(${extraRows.map((row) => row.requestHash)}::text[]),
      unnest(${extraRows.map((row) => row.status)}::integer[]), jsonb_array_elements(${JSON.stringify(extraRows.map((row) => row.response))}::jsonb), unnest(${extraRows.map((row) => row.entryId)}::uuid[]))
  )
  -- Evaluated exactly once, whatever else happened: a balance that was not what the batch was
  -- computed from divides by zero, and the whole statement (every insert above) rolls back.
  select 1 / ((select count(*) from moved) = ${accountIds.length}::integer)::integer as guard,
    (select json_agg(json_build_array(id, seq)) from new_entries) as entries`;
  // The sealer's and the notifier's record of what this process wrote, before the write leaves: a
  // sealing round that finds the entries committed then finds them here too, never reading them
  // back. Should the write not commit, nobody asks for them (only committed entries are queued for
  // the sealer) and they leave with the oldest; their stored form has no seq (the chain numbers them).
  rememberWritten(posted);
  const [row] = (await trx.executeQuery(prepared(writeQuery.compile(trx)))).rows;
  const seqs = new Map((row?.entries ?? []).map(([id, seq]) => [id, Number(seq)]));
  for (const entry of posted) {
    const seq = seqs.get(entry.id);
    assert(seq !== undefined, 'every posted entry got its seq');
    entry.seq = seq;
  }
  return results;
}

/** Bank accounts by kind (cash, operations adjustments, external clearing...). */
export async function bankAccountId(db: DB, kind: Exclude<LedgerAccountKind, 'savings' | 'checking'>): Promise<string> {
  const row = await db.selectFrom('ledger_accounts').select('id').where('kind', '=', kind).where('owner_id', 'is', null).executeTakeFirst();
  assert(row, `bank account ${kind} exists`);
  return row.id;
}
