import { type RawBuilder, sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { EntryKind, LedgerAccountKind } from '../db/schema';
import type { CustomerKey } from '../customers/repository';

// The whole journal's SQL: every entry on every account, paged by key (the entry's seq, the order
// entries were applied in), never by offset, so the thousandth page costs what the first does.
// Which index serves which filter is written in the back-office migration (2026-11-24-41).

export interface JournalFilter {
  kind?: EntryKind | undefined;
  /** The customer's account ids (resolved by the service); entries touching any of them. */
  customerAccountIds?: string[] | undefined;
  accountId?: string | undefined;
  bookedFrom?: Date | undefined;
  bookedTo?: Date | undefined;
  valueFrom?: string | undefined;
  valueTo?: string | undefined;
  amountMinCents?: number | undefined;
  amountMaxCents?: number | undefined;
}

/** Which side of a position a page lies on. */
export type PageDirection = { older: number } | { newer: number } | 'newest';

export interface EntryRow {
  id: string;
  seq: number;
  kind: EntryKind;
  description: string;
  booked_at: Date;
  value_date: string;
  amount: number;
  author_id: string | null;
  reversal_of: string | null;
  details: Record<string, unknown> | null;
}

/** The longest date range (in days) walked one day at a time; a longer one walks the seq key, filtered. */
export const DAY_WALK_DAYS_MAX = 62;

const DAY_MS = 86_400_000;
const daysBetween = (first: string, last: string) => Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1;

/**
 * Where the rows come from and the column that orders them. One account (a bank account may have
 * millions of postings) walks postings_account_seq_idx in order; a customer's few accounts are
 * gathered first (a customer's postings are bounded by what one person does); a value-date or
 * booking-time range of up to DAY_WALK_DAYS_MAX days walks each of its days in seq order
 * ((value_date, seq) and (UTC booking day, seq) indexes) and merges them; otherwise the entries
 * themselves, by seq or by the (kind, seq) index.
 */
interface Source {
  from: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  conditions: RawBuilder<unknown>[];
  /**
   * Walk these days one by one: the indexed day expression and the first and last day; with a
   * kind, each day's entries of that kind are walked down (kind, seq) within the day's seq range.
   */
  days?: { day: (table: string) => RawBuilder<unknown>; first: string; last: string; kind?: EntryKind | undefined };
  /**
   * The entries themselves by amount: a page's keys are found first, then its entries read, so the
   * (amount, seq) index answers the search alone (a narrow range is thousands of entries of which
   * a page keeps 25) and the planner may still walk the seq key for a broad one (migration 63).
   */
  keysFirst?: boolean;
  /** Where the keys alone come from, when the conditions need nothing else (an account's postings). */
  keysFrom?: RawBuilder<unknown> | undefined;
}

/** The day range a filter can be walked by, the shorter of the value-date and the booking-time ranges. */
function dayWalk(filter: JournalFilter): Source['days'] {
  const candidates: NonNullable<Source['days']>[] = [];
  if (filter.valueFrom && filter.valueTo) candidates.push({ day: (table) => sql`${sql.id(table)}.value_date`, first: filter.valueFrom, last: filter.valueTo });
  if (filter.bookedFrom && filter.bookedTo) {
    // Must read as the index journal_entries_booked_day_seq_idx is written.
    candidates.push({
      day: (table) => sql`((${sql.id(table)}.booked_at at time zone 'UTC')::date)`,
      first: filter.bookedFrom.toISOString().slice(0, 10),
      last: new Date(filter.bookedTo.getTime() - 1).toISOString().slice(0, 10),
    });
  }
  const walkable = candidates.filter((range) => daysBetween(range.first, range.last) <= DAY_WALK_DAYS_MAX);
  walkable.sort((one, other) => daysBetween(one.first, one.last) - daysBetween(other.first, other.last));
  return walkable[0];
}

function source(filter: JournalFilter): Source {
  const conditions: RawBuilder<unknown>[] = [];
  if (filter.kind) conditions.push(sql`e.kind = ${filter.kind}`);
  if (filter.bookedFrom) conditions.push(sql`e.booked_at >= ${filter.bookedFrom.toISOString()}::timestamptz`);
  if (filter.bookedTo) conditions.push(sql`e.booked_at < ${filter.bookedTo.toISOString()}::timestamptz`);
  if (filter.valueFrom) conditions.push(sql`e.value_date >= ${filter.valueFrom}::date`);
  if (filter.valueTo) conditions.push(sql`e.value_date <= ${filter.valueTo}::date`);
  if (filter.amountMinCents !== undefined) conditions.push(sql`e.amount >= ${filter.amountMinCents}`);
  if (filter.amountMaxCents !== undefined) conditions.push(sql`e.amount <= ${filter.amountMaxCents}`);
  if (filter.accountId) {
    conditions.push(sql`p.account_id = ${filter.accountId}::uuid`);
    if (filter.customerAccountIds) conditions.push(sql`p.account_id = any(${filter.customerAccountIds}::uuid[])`);
    // Filtered on the account alone, whether anything lies beyond a page is a question for the
    // account's postings only (postings_account_seq_idx), without joining their entries.
    const postingsOnly = conditions.length === (filter.customerAccountIds ? 2 : 1);
    return {
      from: sql`postings p join journal_entries e on e.id = p.entry_id`,
      key: sql`p.entry_seq`,
      conditions,
      keysFrom: postingsOnly ? sql`postings p` : undefined,
    };
  }
  if (filter.customerAccountIds) {
    return {
      from: sql`(select distinct entry_seq from postings where account_id = any(${filter.customerAccountIds}::uuid[])) s join journal_entries e on e.seq = s.entry_seq`,
      key: sql`s.entry_seq`,
      conditions,
    };
  }
  const days = dayWalk(filter);
  if (days) return { from: sql`journal_entries e`, key: sql`e.seq`, conditions, days: { ...days, kind: filter.kind } };
  const byAmount = filter.amountMinCents !== undefined || filter.amountMaxCents !== undefined;
  return { from: sql`journal_entries e`, key: sql`e.seq`, conditions, keysFirst: byAmount };
}

const whereAll = (conditions: RawBuilder<unknown>[]) => (conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``);

const KEY_COLUMN = sql`e.seq`;
const ENTRY_COLUMNS = sql`e.id, e.seq, e.kind, e.description, e.booked_at, e.value_date::text as value_date, e.amount, e.author_id, e.reversal_of, e.details`;

/**
 * The first `limit` rows of a source in key order, with extra conditions (the page's bound). A day
 * walk reads at most `limit` rows from each day, in seq order down its index, then keeps the first
 * `limit` of them all.
 */
function firstRows(source: Source, extra: RawBuilder<unknown>[], order: 'asc' | 'desc', limit: number, columns: RawBuilder<unknown>) {
  const conditions = [...source.conditions, ...extra];
  const direction = sql.raw(order);
  if (source.days) {
    const { day, first, last, kind } = source.days;
    const walk = (kind: EntryKind | undefined) => {
      // Without a kind, the day's own (day, seq) index, the page's bound on seq (extra) in its
      // condition; the filter's conditions are checked on each row, as one condition ("is true"):
      // offered to the planner separately, a booking range estimated as a few hundred rows (the
      // day's equality multiplied in again) sent it down the booking-time index instead, reading
      // and sorting the whole day (15,000 entries, 10 ms, bench:admin at 300,000 customers).
      if (!kind) {
        const filtered = source.conditions.length > 0 ? [sql`(${sql.join(source.conditions, sql` and `)}) is true`] : [];
        return sql`${whereAll([sql`${day('e')} = d.day::date`, ...extra, ...filtered])}`;
      }
      // A kind is walked down (kind, seq) between the day's first and last seq. The day and the
      // other conditions are checked on each row (as one condition, "is true"): offered to the
      // planner as separate conditions, their selectivities multiply (the day three times over)
      // and it walked the whole day down (day, seq) instead, filtering out the other kinds.
      return sql`where e.kind = ${kind} and e.seq between r.first_seq and r.last_seq and (${sql.join([sql`${day('e')} = d.day::date`, ...conditions], sql` and `)}) is true`;
    };
    // A kind is a small part of a day (wires: one entry in fifty): its entries are walked down
    // (kind, seq) within the day's seq range (two probes of the day's index); without a kind, the
    // day's own (day, seq) index.
    return sql`
      select e.* from generate_series(${first}::date, ${last}::date, interval '1 day') as d(day)
      ${kind ? sql`cross join lateral (select min(r.seq) as first_seq, max(r.seq) as last_seq from journal_entries r where ${day('r')} = d.day::date) r` : sql``}
      cross join lateral (
        select ${columns} from journal_entries e ${walk(kind)}
        order by e.seq ${direction} limit ${limit}) e
      order by e.seq ${direction} limit ${limit}`;
  }
  if (columns === KEY_COLUMN && source.keysFrom) {
    return sql`select ${source.key} as seq from ${source.keysFrom} ${whereAll(conditions)} order by ${source.key} ${direction} limit ${limit}`;
  }
  if (!source.keysFirst) return sql`select ${columns} from ${source.from} ${whereAll(conditions)} order by ${source.key} ${direction} limit ${limit}`;
  const keys = sql`select e.seq from journal_entries e ${whereAll(conditions)} order by e.seq ${direction} limit ${limit}`;
  return columns === KEY_COLUMN ? keys : sql`select ${columns} from journal_entries e where e.seq in (${keys}) order by e.seq ${direction}`;
}

/** One page of entries, newest first, and whether there are more beyond each end. */
export async function journalPage(
  db: DB,
  filter: JournalFilter,
  direction: PageDirection,
  pageSize: number,
): Promise<{ rows: EntryRow[]; hasOlder: boolean; hasNewer: boolean }> {
  const found = source(filter);
  const { key } = found;
  const newerPage = typeof direction === 'object' && 'newer' in direction;
  const bound = typeof direction === 'object' ? ('older' in direction ? sql`${key} < ${direction.older}` : sql`${key} > ${direction.newer}`) : null;
  const result = await sql<EntryRow>`${firstRows(found, bound ? [bound] : [], newerPage ? 'asc' : 'desc', pageSize + 1, ENTRY_COLUMNS)}`.execute(db);
  const more = result.rows.length > pageSize;
  const rows = result.rows.slice(0, pageSize);
  if (newerPage) rows.reverse();
  // The other end: is anything beyond it? One probe down the same index, in its order (unordered,
  // the planner may scan the whole table for a row that is not there).
  const exists = async (condition: RawBuilder<unknown>, order: 'asc' | 'desc') =>
    (await sql<{ seq: number }>`${firstRows(found, [condition], order, 1, KEY_COLUMN)}`.execute(db)).rows.length > 0;
  const first = rows[0]?.seq;
  const last = rows[rows.length - 1]?.seq;
  if (direction === 'newest') return { rows, hasOlder: more, hasNewer: false };
  if ('older' in direction) {
    return { rows, hasOlder: more, hasNewer: await exists(first !== undefined ? sql`${key} > ${first}` : sql`${key} >= ${direction.older}`, 'asc') };
  }
  return { rows, hasOlder: await exists(last !== undefined ? sql`${key} < ${last}` : sql`${key} <= ${direction.newer}`, 'desc'), hasNewer: more };
}

export interface EntryDetails {
  /** The entry's postings with their accounts and owners, the bank's accounts first, then by kind. */
  postings: PostingRow[];
  /** The entry that reverses it, if any. */
  reversed_by: string | null;
  /** The newest staff description note, if any. */
  note: string | null;
}

/**
 * What the journal shows with each entry of a page, in one statement (one round trip): its
 * postings with their accounts and owners, its reversal and its newest description note. The
 * three reads are the ones the journal made as three statements, each for the page's entries at
 * once down its index ((entry_id, account_id), reversal_of, (entry_id, id)), joined by `union all`
 * (`part` says which read a row comes from). An entry's postings come in one order on every load:
 * the bank's accounts before customers', by kind, then the debit before the credit (who paid whom),
 * then by account number.
 */
export async function entryDetails(db: DB, entryIds: string[]): Promise<Map<string, EntryDetails>> {
  if (entryIds.length === 0) return new Map();
  const ids = sql`${entryIds}::uuid[]`;
  const query = sql<PostingRow & { part: 0 | 1 | 2; reversed_by: string | null; note: string | null }>`
    (select 0 as part, p.entry_id, p.account_id, a.kind as account_kind, a.name as account_name, a.number, a.owner_id, u.first_name, u.last_name,
       p.amount, p.balance_after, p.memo, p.counterparty, null::uuid as reversed_by, null::text as note, a.owner_id is not null as customer_first
     from postings p join ledger_accounts a on a.id = p.account_id left join users u on u.id = a.owner_id
     where p.entry_id = any(${ids}))
    union all
    (select 1, r.reversal_of, null, null, null, null, null, null, null, null, null, null, null, r.id, null, null
     from journal_entries r where r.reversal_of = any(${ids}))
    union all
    (select distinct on (n.entry_id) 2, n.entry_id, null, null, null, null, null, null, null, null, null, null, null, null, n.description, null
     from entry_notes n where n.entry_id = any(${ids}) order by n.entry_id, n.id desc)
    order by part, entry_id, customer_first, account_kind, amount, number`;
  // A constant text (the ids are one array parameter): prepared once per connection, not planned per page.
  const rows = await db.executeQuery(prepared(query.compile(db)));
  const details = new Map<string, EntryDetails>();
  const of = (entryId: string) => {
    let found = details.get(entryId);
    if (!found) details.set(entryId, (found = { postings: [], reversed_by: null, note: null }));
    return found;
  };
  for (const { part, reversed_by, note, customer_first: _order, ...posting } of rows.rows as Array<
    (typeof rows.rows)[number] & { customer_first: boolean | null }
  >) {
    const entry = of(posting.entry_id);
    if (part === 0) entry.postings.push(posting);
    else if (part === 1) entry.reversed_by = reversed_by;
    else entry.note = note;
  }
  return details;
}

export interface PostingRow {
  entry_id: string;
  account_id: string;
  account_kind: LedgerAccountKind;
  account_name: string;
  number: string | null;
  owner_id: string | null;
  first_name: string | null;
  last_name: string | null;
  amount: number;
  balance_after: number;
  memo: string | null;
  counterparty: string | null;
}

/** Who posted these entries (staff entries name their author). */
export async function emailsOf(db: DB, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function findEntry(db: DB, id: string): Promise<EntryRow | undefined> {
  const row = await db
    .selectFrom('journal_entries')
    .select(['id', 'seq', 'kind', 'description', 'booked_at', sql<string>`value_date::text`.as('value_date'), 'amount', 'author_id', 'reversal_of', 'details'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row as EntryRow | undefined;
}

/** The entry's link on the hash chain, and the entry before it there (none for the first). */
export function chainLink(db: DB, entryId: string) {
  return db
    .selectFrom('ledger_chain as link')
    .leftJoin('ledger_chain as previous', (join) => join.on('previous.position', '=', sql<number>`link.position - 1`))
    .select(['link.position', 'link.hash', 'link.prev_hash', 'link.sealed_at', 'previous.entry_id as prev_entry_id'])
    .where('link.entry_id', '=', entryId)
    .executeTakeFirst();
}

export function descriptionNotes(db: DB, entryId: string) {
  return db.selectFrom('entry_notes').select(['description', 'created_at', 'author_id']).where('entry_id', '=', entryId).orderBy('id', 'desc').execute();
}

/**
 * The audit records about an entry: those whose target is the entry, the reversal that names it
 * (recorded on the entry it reverses), and a balance correction that posted it (recorded on the
 * customer's account, with the entry's id).
 */
export async function auditRecordsOf(db: DB, entry: { id: string; reversal_of: string | null }, customerIds: string[]) {
  const targets = [entry.id, ...(entry.reversal_of ? [entry.reversal_of] : [])];
  const rows = await sql<{
    id: string;
    at: Date;
    actor_email: string | null;
    action: string;
    reason: string | null;
    before: unknown;
    after: unknown;
  }>`
    select id::text as id, at, actor_email, action, reason, before, after from audit_log
    where (target_type = 'journal_entry' and target_id = any(${targets}::text[])
           and (target_id = ${entry.id} or (action = 'transaction.reverse' and after->>'reversal' = ${entry.id})))
       or (target_user_id = any(${customerIds}::uuid[]) and action = 'account.update' and after->>'entryId' = ${entry.id})
    order by at, id
    limit 100`.execute(db);
  return rows.rows;
}

export interface AccountRow {
  id: string;
  kind: LedgerAccountKind;
  name: string;
  number: string | null;
  owner_id: string | null;
  first_name: string | null;
  last_name: string | null;
  balance: number;
}

/** The bank's own accounts (ownerId null) or one customer's, in a fixed order. */
export function accounts(db: DB, ownerId: string | null): Promise<AccountRow[]> {
  let query = db
    .selectFrom('ledger_accounts as a')
    .leftJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.kind', 'a.name', 'a.number', 'a.owner_id', 'u.first_name', 'u.last_name', 'a.balance']);
  query = ownerId ? query.where('a.owner_id', '=', ownerId) : query.where('a.owner_id', 'is', null);
  return query.orderBy('a.kind').execute();
}

export function findAccount(db: DB, id: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('ledger_accounts as a')
    .leftJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.kind', 'a.name', 'a.number', 'a.owner_id', 'u.first_name', 'u.last_name', 'a.balance'])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

/** A customer's account ids (savings and checking). */
/** How staff name a customer: a user id, an email address (lowercase) or one of their account numbers. */

/**
 * The accounts of a customer, named as staff have them at hand, in one prepared statement (one per
 * way of naming: the owner is found inside it, not by a round trip before it).
 */
export async function customerAccountIds(db: DB, customer: CustomerKey): Promise<string[]> {
  const accounts = db.selectFrom('ledger_accounts').select('id');
  const query =
    'id' in customer
      ? accounts.where('owner_id', '=', customer.id)
      : accounts.where('owner_id', 'in', (eb) =>
          'email' in customer
            ? eb.selectFrom('users').select('id').where('email', '=', customer.email)
            : eb
                .selectFrom('ledger_accounts as named')
                .select('named.owner_id')
                .where('named.number', '=', customer.number)
                .where('named.owner_id', 'is not', null),
        );
  const rows = await db.executeQuery(prepared(query.compile()));
  return rows.rows.map((row) => row.id);
}
