import { randomUUID } from 'node:crypto';
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
  extraRows?: (posted: Array<PostedEntry | null>) => IdempotencyRow[],
  pipeline?: Pipeline,
): Promise<Array<PostedEntry | null>> {
  return postBatch(trx, entries, { skipUnaffordable: true, extraRows, pipeline });
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

/**
 * Pipelined posting (the group-commit writer): the batch chains onto a head known in memory
 * instead of locking the head row first; its write then moves the head only if the head is
 * still exactly that one (it waits there for the batch before it to commit). Accounts are still
 * locked in id order first, and the head after them, so the lock order is the same for everyone.
 */
export interface Pipeline {
  /** The head this batch chains onto (called synchronously right before hashing). */
  head(): ChainHead;
  /** Registers this batch's place in the write order and its new head (null: posted nothing). */
  claim(next: ChainHead | null): { ready: Promise<void>; done: () => void };
}

interface BatchOptions {
  skipUnaffordable: boolean;
  pipeline?: Pipeline;
  /** Rows to store with the entries, built once the entries (and their posting ids) are known. */
  extraRows?: (posted: Array<PostedEntry | null>) => IdempotencyRow[];
}

async function postBatch(trx: DB, entries: EntryInput[], options: BatchOptions): Promise<Array<PostedEntry | null>> {
  const skipUnaffordable = options.skipUnaffordable;
  assert(trx.isTransaction, 'postEntries runs inside a transaction');
  assert(entries.length > 0 && entries.length <= ENTRIES_PER_CALL_MAX, 'a batch holds 1 to 1000 entries');
  const movedCents = entries.map(checkEntry);

  const accountIds = [...new Set(entries.flatMap((entry) => entry.postings.map((posting) => posting.accountId)))].sort();
  // One round trip takes every lock: the accounts in id order, then the chain head. Every writer
  // takes them in this order, so no two transactions can wait on each other in a cycle.
  // (Pipelined batches take the head later, in their write; still after the accounts.)
  const locked = options.pipeline
    ? await sql<{ id: string | null; balance: number | null; allow_negative: boolean | null; seq: number | null; hash: string | null }>`
    select id, balance, allow_negative, null::bigint as seq, null::text as hash
      from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update`.execute(trx)
    : await sql<{ id: string | null; balance: number | null; allow_negative: boolean | null; seq: number | null; hash: string | null }>`
    select id, balance, allow_negative, null::bigint as seq, null::text as hash
      from (select id, balance, allow_negative from ledger_accounts where id = any(${accountIds}::uuid[]) order by id for update) as accounts
    union all
    select null, null, null, seq, hash from (select seq, hash from ledger_chain_head where id = 1 for update) as head`.execute(trx);
  const rows = locked.rows.filter((row) => row.id !== null).map((row) => ({ id: row.id ?? '', balance: Number(row.balance), allow_negative: row.allow_negative === true }));
  const lockedHead = locked.rows.find((row) => row.id === null);
  assert(rows.length === accountIds.length, 'every posted account exists');
  const headRow: ChainHead | null = options.pipeline ? null : lockedHead && lockedHead.hash !== null ? { seq: Number(lockedHead.seq), hash: lockedHead.hash } : null;
  assert(options.pipeline || headRow, 'the chain head exists');
  const accounts = new Map(rows.map((row) => [row.id, { balance: row.balance, allowNegative: row.allow_negative }]));

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
  if (balancesAfter.every((balances) => balances === null)) {
    options.pipeline?.claim(null).done();
    return entries.map(() => null);
  }

  // From here to claim() nothing awaits: taking the head and chaining onto it is one step.
  const start = options.pipeline ? options.pipeline.head() : (headRow as ChainHead);
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
  const turn = options.pipeline?.claim({ seq, hash: prevHash });
  // From the claim on, the turn is always released (finally), or every later batch would wait forever.
  try {
    const posted = results.filter((entry): entry is PostedEntry => entry !== null);
    for (const entry of posted) for (const posting of entry.postings) posting.id = randomUUID();
    const extraRows = options.extraRows?.(results) ?? [];

    // One statement writes the entries, their postings, the new balances, the chain head and the
    // callers' idempotency records: one round trip while the chain head is held.
    const entryRows = posted.map(
      (entry) =>
        sql`(${entry.id}::uuid, ${entry.seq}::bigint, ${entry.kind}, ${entry.description}, ${entry.valueDate}::date, ${entry.bookedAt.toISOString()}::timestamptz, ${entry.authorId}::uuid, ${entry.amountCents}::bigint, ${entry.reversalOf}::uuid, ${entry.details === null ? null : JSON.stringify(entry.details)}::jsonb, ${entry.prevHash}, ${entry.hash})`,
    );
    const postingRows = posted.flatMap((entry) =>
      entry.postings.map(
        (posting) =>
          sql`(${posting.id}::uuid, ${entry.id}::uuid, ${entry.seq}::bigint, ${posting.accountId}::uuid, ${posting.amountCents}::bigint, ${posting.balanceAfterCents}::bigint, ${posting.memo}::text, ${posting.counterparty}::text)`,
      ),
    );
    const balanceRows = accountIds.map((id) => sql`(${id}::uuid, ${accounts.get(id)?.balance ?? 0}::bigint)`);
    const keyRows = extraRows.map(
      (row) => sql`(${row.userId}::uuid, ${row.key}, ${row.requestHash}, ${row.status}::integer, ${JSON.stringify(row.response)}::jsonb, ${row.entryId}::uuid)`,
    );
    // Wait for the batch chained before this one to have written (it then holds the head row).
    if (turn) await turn.ready;
    // The head moves only from exactly the head this batch chained onto; otherwise nothing is
    // written (the division by zero aborts the statement) and the writer retries the slow way.
    await sql`
    with new_entries as (
      insert into journal_entries (id, seq, kind, description, value_date, booked_at, author_id, amount, reversal_of, details, prev_hash, hash)
      values ${sql.join(entryRows)}
    ), new_postings as (
      insert into postings (id, entry_id, entry_seq, account_id, amount, balance_after, memo, counterparty)
      values ${sql.join(postingRows)}
    ), moved as (
      update ledger_accounts as account set balance = moved.balance
      from (values ${sql.join(balanceRows)}) as moved(id, balance) where account.id = moved.id
    )${
      keyRows.length > 0
        ? sql`, new_keys as (
      insert into idempotency_keys (user_id, key, request_hash, status_code, response, entry_id) values ${sql.join(keyRows)}
    )`
        : sql``
    }, new_head as (
      -- The condition sits in SET, not WHERE: WHERE would be judged on this statement's snapshot
      -- (the head before the previous batch committed); SET sees the row as locked, after it.
      update ledger_chain_head
      set seq = case when seq = ${start.seq} and hash = ${start.hash} then ${seq} else seq end,
          hash = case when seq = ${start.seq} and hash = ${start.hash} then ${prevHash} else hash end
      where id = 1
      returning seq = ${seq} and hash = ${prevHash} as moved
    )
    select 1 / (select count(*)::integer from new_head where moved) as chained`.execute(trx);
  } catch (error) {
    if (process.env.LEDGER_WRITER_DEBUG) console.error('write failed; chained onto', start, 'claimed', { seq, hash: prevHash });
    throw error;
  } finally {
    turn?.done();
  }
  return results;
}

/** Bank accounts by kind (cash, operations adjustments, external clearing...). */
export async function bankAccountId(db: DB, kind: 'bank_cash' | 'bank_operations' | 'external_clearing' | 'loans_receivable'): Promise<string> {
  const row = await db.selectFrom('ledger_accounts').select('id').where('kind', '=', kind).where('owner_id', 'is', null).executeTakeFirst();
  assert(row, `bank account ${kind} exists`);
  return row.id;
}
