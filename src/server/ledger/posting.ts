import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { EntryKind, LedgerAccountKind } from '../db/schema';
import { AppError, assert } from '../lib/errors';
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
  const posted = await postBatch(trx, entries, { skipUnaffordable: false });
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

export interface ChainHead {
  seq: number;
  hash: string;
}

interface LockedRow {
  id: string | null;
  balance: number | null;
  allow_negative: boolean | null;
  seq: number | null;
  hash: string | null;
}

export interface BatchOptions {
  skipUnaffordable: boolean;
  /**
   * Chain onto this head (the group-commit writer's, known in memory) instead of locking the
   * head row up front: the write then moves the head only from exactly this one, or fails whole.
   */
  head?: ChainHead;
  /** Rows to store with the entries, built once the entries (and their posting ids) are known. */
  extraRows?: (posted: Array<PostedEntry | null>) => IdempotencyRow[];
  /**
   * The caller's book of balances (the group-commit writer's), given the batch's new balances as
   * soon as they are computed. Outside a transaction, with every touched account in it, the batch
   * is computed from the book instead of a locking read, and written in one autocommit statement
   * that locks the accounts in id order and posts only if each balance is still exactly the
   * book's; otherwise it fails whole and the caller retries with locks.
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

async function postBatch(trx: DB, entries: EntryInput[], options: BatchOptions): Promise<Array<PostedEntry | null>> {
  const skipUnaffordable = options.skipUnaffordable;
  const fromBook = !trx.isTransaction;
  assert(!fromBook || (options.book && options.head), 'only the writer posts from its book, outside a transaction');
  assert(entries.length > 0 && entries.length <= ENTRIES_PER_CALL_MAX, 'a batch holds 1 to 1000 entries');
  const movedCents = entries.map(checkEntry);

  const accountIds = [...new Set(entries.flatMap((entry) => entry.postings.map((posting) => posting.accountId)))].sort();
  const book = options.book;
  let accounts: Map<string, BookedAccount>;
  let headRow: ChainHead | null = null;
  if (fromBook && book) {
    accounts = new Map(
      accountIds.map((id) => {
        const known = book.get(id);
        assert(known, 'every account of a batch posted from the book is in it');
        return [id, { ...known }];
      }),
    );
  } else {
    // One round trip takes every lock: the accounts in id order, then the chain head. Every writer
    // takes them in this order, so no two transactions can wait on each other in a cycle.
    // (A batch given the head takes the head row later, in its write; still after the accounts.)
    const lockQuery = options.head
      ? sql<LockedRow>`
      select id, balance, allow_negative, null::bigint as seq, null::text as hash
        from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update`
      : sql<LockedRow>`
      select id, balance, allow_negative, null::bigint as seq, null::text as hash
        from (select id, balance, allow_negative from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update) as accounts
      union all
      select null, null, null, seq, hash from (select seq, hash from ledger_chain_head where id = 1 for update) as head`;
    const locked = await trx.executeQuery(prepared(lockQuery.compile(trx)));
    const rows = locked.rows
      .filter((row) => row.id !== null)
      .map((row) => ({ id: row.id ?? '', balance: Number(row.balance), allow_negative: row.allow_negative === true }));
    const lockedHead = locked.rows.find((row) => row.id === null);
    assert(rows.length === accountIds.length, 'every posted account exists');
    headRow = lockedHead && lockedHead.hash !== null ? { seq: Number(lockedHead.seq), hash: lockedHead.hash } : null;
    assert(options.head || headRow, 'the chain head exists');
    accounts = new Map(rows.map((row) => [row.id, { balance: row.balance, allowNegative: row.allow_negative }]));
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

  const start = options.head ?? (headRow as ChainHead);
  let seq = start.seq;
  let prevHash: string = start.hash;
  const bookedAt = new Date();
  const today = bookedAt.toISOString().slice(0, 10);

  const results: Array<PostedEntry | null> = entries.map((entry, entryIndex) => {
    const balances = balancesAfter[entryIndex];
    if (!balances) return null;
    seq += 1;
    const postings = entry.postings.map((posting, postingIndex) => ({
      id: '',
      accountId: posting.accountId,
      amountCents: posting.amountCents,
      balanceAfterCents: balances[postingIndex] ?? Number.NaN,
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
  const posted = results.filter((entry): entry is PostedEntry => entry !== null);
  for (const entry of posted) for (const posting of entry.postings) posting.id = randomUUID();
  const extraRows = options.extraRows?.(results) ?? [];

  // One statement writes the entries, their postings, the new balances, the chain head and the
  // callers' idempotency records: one round trip while the chain head is held. Its text is the
  // same for any batch (the rows travel as arrays), so it is prepared: planned once per connection.
  const postingsOf = posted.flatMap((entry) => entry.postings.map((posting) => ({ entry, posting })));
  const writeQuery = sql`
  with locked as materialized (
    select id from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update
  ), moved as (
    -- Each balance moves only from exactly the balance the batch was computed from (re-checked
    -- on the newest row version, under the lock): a stale book posts nothing.
    update ledger_accounts as account set balance = target.after
    from unnest(${accountIds}::uuid[], ${balancesBefore}::bigint[], ${accountIds.map((id) => accounts.get(id)?.balance ?? 0)}::bigint[]) as target(id, before, after)
    where account.id = target.id and account.balance = target.before and (select count(*) from locked) = ${accountIds.length}::integer
    returning account.id
  ), new_entries as (
    insert into journal_entries (id, seq, kind, description, value_date, booked_at, author_id, amount, reversal_of, details, prev_hash, hash)
    select * from unnest(${posted.map((entry) => entry.id)}::uuid[], ${posted.map((entry) => entry.seq)}::bigint[], ${posted.map((entry) => entry.kind)}::text[],
      ${posted.map((entry) => entry.description)}::text[], ${posted.map((entry) => entry.valueDate)}::date[], ${posted.map((entry) => entry.bookedAt.toISOString())}::timestamptz[],
      ${posted.map((entry) => entry.authorId)}::uuid[], ${posted.map((entry) => entry.amountCents)}::bigint[], ${posted.map((entry) => entry.reversalOf)}::uuid[],
      ${posted.map((entry) => (entry.details === null ? null : JSON.stringify(entry.details)))}::jsonb[], ${posted.map((entry) => entry.prevHash)}::text[], ${posted.map((entry) => entry.hash)}::text[])
  ), new_postings as (
    insert into postings (id, entry_id, entry_seq, account_id, amount, balance_after, memo, counterparty)
    select * from unnest(${postingsOf.map((row) => row.posting.id)}::uuid[], ${postingsOf.map((row) => row.entry.id)}::uuid[], ${postingsOf.map((row) => row.entry.seq)}::bigint[],
      ${postingsOf.map((row) => row.posting.accountId)}::uuid[], ${postingsOf.map((row) => row.posting.amountCents)}::bigint[], ${postingsOf.map((row) => row.posting.balanceAfterCents)}::bigint[],
      ${postingsOf.map((row) => row.posting.memo)}::text[], ${postingsOf.map((row) => row.posting.counterparty)}::text[])
  ), new_keys as (
    insert into idempotency_keys (user_id, key, request_hash, status_code, response, entry_id)
    select * from unnest(${extraRows.map((row) => row.userId)}::uuid[], ${extraRows.map((row) => row.key)}::text[], ${extraRows.map((row) => row.requestHash)}::text[],
      ${extraRows.map((row) => row.status)}::integer[], ${extraRows.map((row) => JSON.stringify(row.response))}::jsonb[], ${extraRows.map((row) => row.entryId)}::uuid[])
  ), new_head as (
    -- The condition sits in SET, not WHERE: WHERE would be judged on this statement's snapshot
    -- (the head before the previous batch committed); SET sees the row as locked, after it.
    -- Reading moved here makes the accounts lock (in id order) before the head, as everywhere.
    update ledger_chain_head
    set seq = case when seq = ${start.seq}::bigint and hash = ${start.hash}::text then ${seq}::bigint else seq end,
        hash = case when seq = ${start.seq}::bigint and hash = ${start.hash}::text then ${prevHash}::text else hash end
    where id = 1 and (select count(*) from moved) = ${accountIds.length}::integer
    returning seq = ${seq}::bigint and hash = ${prevHash}::text as chained_on
  )
  select 1 / (select count(*)::integer from new_head where chained_on) as chained`;
  // The head moves only from exactly the head this batch chained onto; otherwise nothing is
  // written (the division by zero aborts the statement) and the writer retries the slow way.
  await trx.executeQuery(prepared(writeQuery.compile(trx)));
  return results;
}

/** Bank accounts by kind (cash, operations adjustments, external clearing...). */
export async function bankAccountId(db: DB, kind: Exclude<LedgerAccountKind, 'savings' | 'checking'>): Promise<string> {
  const row = await db.selectFrom('ledger_accounts').select('id').where('kind', '=', kind).where('owner_id', 'is', null).executeTakeFirst();
  assert(row, `bank account ${kind} exists`);
  return row.id;
}
