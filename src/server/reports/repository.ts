import { type Selectable, sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { LedgerAccountKind, TrialBalancesTable } from '../db/schema';

// End of day's SQL (issue 15): a closed bank day's movements per account, the balances they start
// from, the stored trial balances, and an account's balance at the end of a past day.

/** The advisory lock under which one process at a time closes days (next to the sealer's and the seed's). */
export const CLOSE_DAYS_LOCK_KEY = 4_812_300;

export async function takeCloseLock(trx: DB): Promise<boolean> {
  const result = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${CLOSE_DAYS_LOCK_KEY}) as got`.execute(trx);
  return result.rows[0]?.got === true;
}

/** The first and the newest closed day, if any. */
export async function closedDayRange(db: DB): Promise<{ first: string | null; last: string | null }> {
  const row = await db
    .selectFrom('trial_balances')
    .select([sql<string | null>`min(day)::text`.as('first'), sql<string | null>`max(day)::text`.as('last')])
    .executeTakeFirst();
  return { first: row?.first ?? null, last: row?.last ?? null };
}

/** When the first entry ever was booked (the bank's first day), if any. */
export async function firstBookingTime(db: DB): Promise<Date | null> {
  const row = await db.selectFrom('journal_entries').select('booked_at').orderBy('booked_at').limit(1).executeTakeFirst();
  return row ? new Date(row.booked_at) : null;
}

export interface Movement {
  account_id: string;
  debits: number;
  credits: number;
}

/** What moved on each account between two instants, by booking time (booked_at index, then each entry's postings). */
export async function movements(db: DB, from: Date, to: Date): Promise<{ accounts: Movement[]; entries: number }> {
  const [accounts, entries] = await Promise.all([
    sql<Movement>`
      select p.account_id,
        coalesce(sum(-p.amount) filter (where p.amount < 0), 0)::bigint as debits,
        coalesce(sum(p.amount) filter (where p.amount > 0), 0)::bigint as credits
      from journal_entries e join postings p on p.entry_id = e.id
      where e.booked_at >= ${from.toISOString()}::timestamptz and e.booked_at < ${to.toISOString()}::timestamptz
      group by p.account_id`.execute(db),
    sql<{ count: number }>`
      select count(*)::int as count from journal_entries
      where booked_at >= ${from.toISOString()}::timestamptz and booked_at < ${to.toISOString()}::timestamptz`.execute(db),
  ]);
  return { accounts: accounts.rows, entries: entries.rows[0]?.count ?? 0 };
}

/**
 * Each account's balance as a day begins: its newest stored closing balance before that day (days
 * are closed in order with no gap, so an account without a line since then did not move), or, for
 * an account with no stored line at all, the sum of its postings booked before the day began.
 */
export async function openingBalances(db: DB, day: string, from: Date, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const result = await sql<{ id: string; opening: number }>`
    select a.id, coalesce(
      (select l.closing from trial_balance_lines l where l.account_id = a.id and l.day < ${day}::date order by l.day desc limit 1),
      (select coalesce(sum(p.amount), 0)::bigint from postings p join journal_entries e on e.id = p.entry_id
        where p.account_id = a.id and e.booked_at < ${from.toISOString()}::timestamptz)
    )::bigint as opening
    from unnest(${accountIds}::uuid[]) as a(id)`.execute(db);
  return new Map(result.rows.map((row) => [row.id, Number(row.opening)]));
}

/** Every account's balance summed at an instant, from the postings (the first day closed starts from it: zero under double entry). */
export async function everyPostingBefore(db: DB, instant: Date): Promise<number> {
  const result = await sql<{ total: number }>`
    select coalesce(sum(p.amount), 0)::bigint as total from postings p join journal_entries e on e.id = p.entry_id
    where e.booked_at < ${instant.toISOString()}::timestamptz`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** The accounts that existed when a day ended. */
export async function accountsOpenedBefore(db: DB, instant: Date): Promise<number> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('created_at', '<', instant)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** A closed day's trial balance as stored (its lines apart). */
export type TrialBalanceHeader = Selectable<TrialBalancesTable>;

export type TrialBalanceLine = { account_id: string; opening: number; debits: number; credits: number; closing: number };

/**
 * The report's order: the bank's own accounts first, then customer accounts by number and kind.
 * Stored with each line (trial_balance_lines.sort_key), and numbered in that order
 * (trial_balance_lines.position) so a page is a range of trial_balance_lines_day_position_idx.
 */
const SORT_KEY = sql<string>`(case when a.owner_id is null then '0' else '1' end) || coalesce(a.number, '') || ' ' || a.kind || ' ' || a.id::text`;

/**
 * Stores one closed day (inside the closing transaction), each line with its place in the report's
 * order. The lines go to a temporary table in chunks first (the statement's parameters stay small),
 * then into the day's report in one statement that sorts them and numbers them 1, 2, ...
 */
export async function insertTrialBalance(trx: DB, header: Omit<TrialBalanceHeader, 'created_at'>, lines: TrialBalanceLine[]): Promise<void> {
  await trx.insertInto('trial_balances').values(header).execute();
  await sql`
    create temporary table trial_balance_staged (account_id uuid not null, opening bigint not null, debits bigint not null, credits bigint not null, closing bigint not null)
    on commit drop`.execute(trx);
  const LINES_PER_INSERT = 5000;
  for (let start = 0; start < lines.length; start += LINES_PER_INSERT) {
    const chunk = lines.slice(start, start + LINES_PER_INSERT);
    await sql`
      insert into trial_balance_staged (account_id, opening, debits, credits, closing)
      select * from unnest(${chunk.map((line) => line.account_id)}::uuid[], ${chunk.map((line) => line.opening)}::bigint[],
        ${chunk.map((line) => line.debits)}::bigint[], ${chunk.map((line) => line.credits)}::bigint[], ${chunk.map((line) => line.closing)}::bigint[])`.execute(
      trx,
    );
  }
  await sql`
    insert into trial_balance_lines (day, account_id, opening, debits, credits, closing, sort_key, position)
    select ${header.day}::date, k.account_id, k.opening, k.debits, k.credits, k.closing, k.sort_key, row_number() over (order by k.sort_key)::int
    from (select l.*, ${SORT_KEY} as sort_key from trial_balance_staged l join ledger_accounts a on a.id = l.account_id) k`.execute(trx);
  await sql`drop table trial_balance_staged`.execute(trx);
}

export async function trialBalanceHeader(db: DB, day: string): Promise<TrialBalanceHeader | undefined> {
  const query = db
    .selectFrom('trial_balances')
    .select([
      sql<string>`day::text`.as('day'),
      'starts_at',
      'ends_at',
      'time_zone',
      'accounts_moved',
      'opening_total',
      'debits_total',
      'credits_total',
      'closing_total',
      'unchanged_accounts',
      'unchanged_balance',
      'entries',
      'created_at',
    ])
    .where('day', '=', day);
  // Constant texts, prepared once per connection (each report page reads both).
  const [row] = (await db.executeQuery(prepared(query.compile()))).rows;
  return row as TrialBalanceHeader | undefined;
}

export interface NamedLine extends TrialBalanceLine {
  kind: LedgerAccountKind;
  name: string;
  number: string | null;
  owner_id: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The line's place in the day's report (1 for the first line). */
  position: number;
}

/**
 * Lines of a closed day in the report's order: positions `after` + 1 to `after` + `limit` (page N
 * of the report starts after (N-1) * size; the exports read on from the last position they got).
 * A range of the covering (day, position) index, whatever its depth; only its lines are joined to
 * their accounts and owners.
 *
 * The positions are named one by one (they are numbered without a gap): for `position = any($2)`
 * PostgreSQL keeps the prepared statement's generic plan, where a range of parameters made it plan
 * every call again (its generic estimate of a range is thousands of lines): 0.4 to 0.9 ms of
 * planning a page at a million customers, more than the page's execution (ADR 027).
 */
export async function trialBalanceLines(db: DB, day: string, options: { after: number; limit: number }): Promise<NamedLine[]> {
  const positions = Array.from({ length: options.limit }, (_, index) => options.after + 1 + index);
  const query = sql<NamedLine>`
    select l.account_id, l.opening, l.debits, l.credits, l.closing, a.kind, a.name, a.number, a.owner_id, u.first_name, u.last_name, l.position
    from trial_balance_lines l
    join ledger_accounts a on a.id = l.account_id
    left join users u on u.id = a.owner_id
    where l.day = ${day}::date and l.position = any(${positions}::int[])
    order by l.position`;
  return (await db.executeQuery(prepared(query.compile(db)))).rows;
}

// ---------------------------------------------------------------- balance at a past date

/** The account's newest stored closing balance on or before a day. */
export function lineOnOrBefore(db: DB, accountId: string, day: string) {
  return db
    .selectFrom('trial_balance_lines')
    .select([sql<string>`day::text`.as('day'), 'closing'])
    .where('account_id', '=', accountId)
    .where('day', '<=', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The account's oldest stored line after a day (its opening is the balance at that day's end when nothing moved between). */
export function lineAfter(db: DB, accountId: string, day: string) {
  return db
    .selectFrom('trial_balance_lines')
    .select([sql<string>`day::text`.as('day'), 'opening'])
    .where('account_id', '=', accountId)
    .where('day', '>', day)
    .orderBy('day', 'asc')
    .limit(1)
    .executeTakeFirst();
}

/** The sum of an account's postings booked before an instant (walks the account's postings). */
export async function accountPostingsBefore(db: DB, accountId: string, instant: Date): Promise<number> {
  const result = await sql<{ total: number }>`
    select coalesce(sum(p.amount), 0)::bigint as total from postings p join journal_entries e on e.id = p.entry_id
    where p.account_id = ${accountId}::uuid and e.booked_at < ${instant.toISOString()}::timestamptz`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** The sum of an account's postings booked in [from, to) (walks the entries booked then: a few recent days at most). */
export async function accountPostingsBetween(db: DB, accountId: string, from: Date, to: Date): Promise<number> {
  const result = await sql<{ total: number }>`
    select coalesce(sum(p.amount), 0)::bigint as total from journal_entries e join postings p on p.entry_id = e.id and p.account_id = ${accountId}::uuid
    where e.booked_at >= ${from.toISOString()}::timestamptz and e.booked_at < ${to.toISOString()}::timestamptz`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}
