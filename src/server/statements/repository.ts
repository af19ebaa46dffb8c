import { sql } from 'kysely';
import type { CustomerAccountKind } from '../../shared/contracts/transactions';
import type { DB } from '../db/database';
import type { StatementsTable } from '../db/schema';
import type { Insertable } from 'kysely';

// Every query of statements and exports. A statement's lines are the account's postings between
// two "cuts": cut(t) is the entry_seq of the account's last posting booked before t, so the lines
// of month M are those with cut(start of M) < entry_seq <= cut(end of M). Consecutive months meet
// exactly (one's closing balance is the next one's opening), and running balances are in seq
// order, the order the ledger applied them (ADR 008).

export interface StatementAccount {
  id: string;
  kind: CustomerAccountKind;
  number: string;
  ownerId: string;
  firstName: string;
  lastName: string;
}

function accountQuery(db: DB) {
  return db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.kind', 'a.number', 'a.owner_id', 'u.first_name', 'u.last_name'])
    .where('a.kind', 'in', ['savings', 'checking']);
}

type AccountRow = { id: string; kind: string; number: string | null; owner_id: string | null; first_name: string; last_name: string };
const toAccount = (row: AccountRow): StatementAccount => ({
  id: row.id,
  kind: row.kind as CustomerAccountKind,
  number: row.number ?? '',
  ownerId: row.owner_id ?? '',
  firstName: row.first_name,
  lastName: row.last_name,
});

/** A customer's savings or checking account (undefined for anyone without one: staff, a stranger's id). */
export async function findCustomerAccount(db: DB, userId: string, kind: CustomerAccountKind): Promise<StatementAccount | undefined> {
  const row = await accountQuery(db).where('a.owner_id', '=', userId).where('a.kind', '=', kind).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAccountById(db: DB, accountId: string): Promise<StatementAccount | undefined> {
  const row = await accountQuery(db).where('a.id', '=', accountId).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

/** The entry_seq of the account's last posting booked before `before` (0: none). */
export async function cutSeq(db: DB, accountId: string, before: Date): Promise<number> {
  const row = await db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select('p.entry_seq')
    .where('p.account_id', '=', accountId)
    .where('e.booked_at', '<', before)
    .orderBy('p.entry_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.entry_seq) : 0;
}

/** The account's balance right after its posting at `seq` (0 before its first posting). */
export async function balanceAfterSeq(db: DB, accountId: string, seq: number): Promise<number> {
  if (seq === 0) return 0;
  const row = await db.selectFrom('postings').select('balance_after').where('account_id', '=', accountId).where('entry_seq', '=', seq).executeTakeFirst();
  if (!row) throw new Error(`Assertion failed: the account has a posting at seq ${seq}`);
  return row.balance_after;
}

export interface LedgerLine {
  postingId: string;
  entryId: string;
  seq: number;
  amountCents: number;
  balanceAfterCents: number;
  description: string;
  counterparty: string | null;
  valueDate: string;
  bookedAt: Date;
}

/** The account's postings with afterSeq < seq <= throughSeq, in seq order; at most `limit`. */
export async function linesBetween(db: DB, accountId: string, afterSeq: number, throughSeq: number, limit: number): Promise<LedgerLine[]> {
  const rows = await db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select([
      'p.id',
      'p.entry_id',
      'p.entry_seq',
      'p.amount',
      'p.balance_after',
      'p.memo',
      'p.counterparty',
      'e.description',
      'e.value_date',
      'e.booked_at',
      // How the history reads it at this moment: the newest staff note, else the line's own words.
      sql<string | null>`(select n.description from entry_notes n where n.entry_id = e.id order by n.id desc limit 1)`.as('note'),
    ])
    .where('p.account_id', '=', accountId)
    .where('p.entry_seq', '>', afterSeq)
    .where('p.entry_seq', '<=', throughSeq)
    .orderBy('p.entry_seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    postingId: row.id,
    entryId: row.entry_id,
    seq: Number(row.entry_seq),
    amountCents: row.amount,
    balanceAfterCents: row.balance_after,
    description: row.note ?? row.memo ?? row.description,
    counterparty: row.counterparty,
    valueDate: row.value_date,
    bookedAt: new Date(row.booked_at),
  }));
}

/** The same range counted and summed by PostgreSQL: the independent check of what was read line by line. */
export async function totalsBetween(db: DB, accountId: string, afterSeq: number, throughSeq: number): Promise<{ count: number; sumCents: number }> {
  const row = await db
    .selectFrom('postings')
    .select((eb) => [eb.fn.countAll<string>().as('count'), sql<string | null>`sum(amount)`.as('sum')])
    .where('account_id', '=', accountId)
    .where('entry_seq', '>', afterSeq)
    .where('entry_seq', '<=', throughSeq)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), sumCents: Number(row.sum ?? 0) };
}

/** Where the sealer chained an entry (undefined: not sealed yet). */
export async function chainLinkOf(db: DB, entryId: string): Promise<{ position: number; hash: string } | undefined> {
  const row = await db.selectFrom('ledger_chain').select(['position', 'hash']).where('entry_id', '=', entryId).executeTakeFirst();
  return row ? { position: Number(row.position), hash: row.hash } : undefined;
}

// ---------------------------------------------------------------- stored statements

export type StatementRow = Awaited<ReturnType<typeof findStatement>>;

export function findStatement(db: DB, accountId: string, period: string) {
  return db.selectFrom('statements').selectAll().where('account_id', '=', accountId).where('period', '=', period).executeTakeFirst();
}

export function findStatementBySha256(db: DB, sha256: string) {
  return db.selectFrom('statements').selectAll().where('sha256', '=', sha256).executeTakeFirst();
}

/** Stores a statement unless the account's statement of that period exists (another process made it first). */
export async function insertStatement(db: DB, row: Insertable<StatementsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('statements')
    .values(row)
    .onConflict((conflict) => conflict.columns(['account_id', 'period']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function listStoredStatements(db: DB, userId: string) {
  return db.selectFrom('statements').select(['period', 'account_kind', 'issued_at']).where('user_id', '=', userId).execute();
}

/** When the customer's first posting was booked (undefined: none yet). */
export async function firstBookedAt(db: DB, userId: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select(sql<Date>`min(e.booked_at)`.as('first'))
    .where('a.owner_id', '=', userId)
    .where('a.kind', 'in', ['savings', 'checking'])
    .executeTakeFirst();
  return row?.first ? new Date(row.first) : undefined;
}

/**
 * The customer's postings per account and period, in one pass: `bounds` are the instants periods
 * begin (ascending); bucket i (1-based) holds the postings booked in [bounds[i-1], bounds[i]),
 * bucket 0 those before the first bound. Answers the highest entry_seq of each non-empty bucket.
 */
export async function lastSeqByPeriod(
  db: DB,
  userId: string,
  bounds: Date[],
): Promise<Array<{ account: CustomerAccountKind; bucket: number; lastSeq: number }>> {
  const { rows } = await sql<{ kind: CustomerAccountKind; bucket: number; last_seq: string }>`
    select a.kind, width_bucket(e.booked_at, ${bounds.map((bound) => bound.toISOString())}::timestamptz[]) as bucket, max(p.entry_seq) as last_seq
    from postings p
    join ledger_accounts a on a.id = p.account_id
    join journal_entries e on e.id = p.entry_id
    where a.owner_id = ${userId} and a.kind in ('savings', 'checking')
    group by 1, 2`.execute(db);
  return rows.map((row) => ({ account: row.kind, bucket: Number(row.bucket), lastSeq: Number(row.last_seq) }));
}

// ---------------------------------------------------------------- the monthly job

export async function completedRuns(db: DB, periods: string[]): Promise<Set<string>> {
  if (periods.length === 0) return new Set();
  const rows = await db.selectFrom('statement_runs').select('period').where('period', 'in', periods).execute();
  return new Set(rows.map((row) => row.period));
}

/**
 * Queues one job per customer account with a posting booked in [from, to) and no statement of the
 * period yet, in the caller's transaction, in one statement; answers how many it queued. The job
 * key makes a second queueing of the same account and month one job.
 */
export async function queueStatementJobs(trx: DB, task: string, period: string, range: { from: Date; to: Date }, maxAttempts: number): Promise<number> {
  const { rows } = await sql<{ queued: string }>`
    with due as (
      select distinct p.account_id
      from journal_entries e
      join postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id
      where e.booked_at >= ${range.from.toISOString()}::timestamptz and e.booked_at < ${range.to.toISOString()}::timestamptz
        and a.owner_id is not null and a.kind in ('savings', 'checking')
        and not exists (select 1 from statements s where s.account_id = p.account_id and s.period = ${period})
    ), queued as (
      select graphile_worker.add_job(${task}, json_build_object('accountId', due.account_id, 'month', ${period}::text),
        max_attempts => ${maxAttempts}::int, job_key => 'statement:' || due.account_id || ':' || ${period}::text)
      from due
    )
    select count(*) as queued from queued`.execute(trx);
  return Number(rows[0]?.queued ?? 0);
}

export async function markRunCompleted(trx: DB, period: string, accountsQueued: number): Promise<void> {
  await trx
    .insertInto('statement_runs')
    .values({ period, accounts_queued: accountsQueued })
    .onConflict((conflict) => conflict.column('period').doNothing())
    .execute();
}

// ---------------------------------------------------------------- exports

/** The account's postings booked in [from, to), in seq order; at most `limit`. */
export async function linesBookedIn(db: DB, accountId: string, range: { from: Date; to: Date }, limit: number): Promise<LedgerLine[]> {
  const [afterSeq, throughSeq] = await Promise.all([cutSeq(db, accountId, range.from), cutSeq(db, accountId, range.to)]);
  if (throughSeq <= afterSeq) return [];
  return linesBetween(db, accountId, afterSeq, throughSeq, limit);
}
