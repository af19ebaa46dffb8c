import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { UserSortField } from '../../shared/contracts/admin';
import type { Paginated } from '../../shared/contracts/common';
import { type DB, prepared } from '../db/database';
import { isForeignKeyViolation } from '../db/errors';
import { hasWord, matchesWords, matchesWordsUnseen, wordsOf } from '../db/word-search';
import type { User, VerificationStatus } from '../db/schema';
import type { StaffRole } from '../../shared/staff-roles';
import { isUuid } from '../ledger/uuid';

// The back office's queries on the users table: the customers list, one customer, staff edits, and
// closing or deleting (DESIGN.md rule 6). Other domains' rows go through their own erase functions.

/** A customer as staff name them in a filter: a user id, an email address or an account number. */
export type CustomerKey = { id: string } | { email: string } | { number: string };

/** What a search box's text asks for: an account number's start (4 to 10 digits), a user id, words, or nothing. */
type SearchKind = { kind: 'number'; digits: string } | { kind: 'id' } | { kind: 'words' } | { kind: 'nothing' };

function searchKind(search: string): SearchKind {
  const digits = search.replace(/[\s-]/g, '');
  if (/^\d{4,10}$/.test(digits)) return { kind: 'number', digits };
  if (isUuid(search)) return { kind: 'id' };
  // Nothing but punctuation is no word at all: nothing matches it.
  return hasWord(search) ? { kind: 'words' } : { kind: 'nothing' };
}

/**
 * The search box: an account number (4 to 10 digits: its start), a user id, or words of a name or
 * email address, each a whole word but the last, which may be a word's start ("mary zimm"; ADR 027).
 * Every branch is served by an index: account numbers' prefixes, the primary key, and the word
 * index of migration 58 (the query is built by the same splitting as the stored words).
 */
function searchCondition(search: string, asked: SearchKind): RawBuilder<SqlBool> {
  switch (asked.kind) {
    case 'number': {
      // A whole number (ten digits) is one account: asked as such, PostgreSQL plans it in a tenth of
      // the time it takes to weigh a prefix against the numbers' histogram (0.1 against 0.3-2 ms).
      const match = asked.digits.length === 10 ? sql`number = ${asked.digits}` : sql`number like ${`${asked.digits}%`}`;
      return sql<SqlBool>`u.id in (select owner_id from ledger_accounts where owner_id is not null and ${match})`;
    }
    case 'id':
      return sql<SqlBool>`u.id = ${search.toLowerCase()}::uuid`;
    case 'words':
      return matchesWords(sql`u.search_words`, search);
    case 'nothing':
      return sql<SqlBool>`false`;
  }
}

/**
 * The planner's estimate of how many users a search condition matches, as an expression of the
 * list's statement: the condition's text (built here, never typed by anyone) and its one value go
 * to plan_rows() separately, which plans it with that value and runs nothing.
 */
function planRows(db: DB, condition: RawBuilder<SqlBool>): RawBuilder<number> | null {
  const compiled = condition.compile(db);
  if (compiled.parameters.length !== 1) return null;
  return sql<number>`plan_rows(${`select 1 from users u where ${compiled.sql}`}, ${compiled.parameters[0]}::text)`;
}

const SORT_COLUMNS = {
  createdAt: sql`u.created_at`,
  firstName: sql`lower(u.first_name)`,
  lastName: sql`lower(u.last_name)`,
  email: sql`u.email`,
} as const;

export interface UserListRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  number: string | null;
  is_admin: boolean;
  staff_role: StaffRole | null;
  is_blocked: boolean;
  is_account_disabled: boolean;
  verification_status: VerificationStatus;
  closed_at: Date | null;
  created_at: Date;
}

export interface UserListQuery {
  page: number;
  pageSize: number;
  search?: string | undefined;
  sort: UserSortField;
  order: 'asc' | 'desc';
}

/** A search counts its matches exactly up to this many; beyond, the total is the planner's estimate. */
export const SEARCH_COUNT_EXACT_MAX = 1000;
/**
 * A one-word search newest first that the planner's statistics say at least this many customers
 * match is not counted at all: its page is walked down the newest-first index alone and its total
 * is the statistics' figure, an estimate (ADR 027). Twice the exact limit: a word's share in
 * ANALYZE's sample is not off by half.
 */
export const SEARCH_WALK_ONLY_MIN = 2 * SEARCH_COUNT_EXACT_MAX;
/** How long a process keeps the users' word statistics before reading them again (ANALYZE renews them). */
export const WORD_STATISTICS_TTL_MS = 5 * 60_000;

/** The columns a list row shows (not every column of users: a page parses only what it shows). */
const LIST_COLUMNS = sql.raw(
  'u.id, u.first_name, u.last_name, u.email, u.is_admin, u.staff_role, u.is_blocked, u.is_account_disabled, u.verification_status, u.closed_at, u.created_at',
);

const EXACT_MAX = sql.lit(SEARCH_COUNT_EXACT_MAX);

/**
 * A page's LIMIT and OFFSET. In a statement meant to keep one generic plan they are values the
 * planner does not see (InitPlans): a LIMIT it can see makes every call's own plan look cheaper
 * than the generic one, and PostgreSQL would then plan every call.
 */
function pageBounds(pageSize: number, offset: number, unseen: boolean): { limit: RawBuilder<number>; offset: RawBuilder<number> } {
  return unseen
    ? { limit: sql<number>`(select ${pageSize}::int)`, offset: sql<number>`(select ${offset}::int)` }
    : { limit: sql<number>`${pageSize}`, offset: sql<number>`${offset}` };
}

/**
 * The ids of one page walked down the newest-first index in a subquery with OFFSET 0 (planned on
 * its own, so the match is checked on the index's rows in their order, whatever the estimates);
 * `gate`, when given, is checked before the walk starts.
 */
function walkedPage(
  sortKey: RawBuilder<unknown>,
  matches: RawBuilder<SqlBool>,
  bounds: { limit: RawBuilder<number>; offset: RawBuilder<number> },
  gate?: RawBuilder<SqlBool>,
): RawBuilder<unknown> {
  return sql`select u.id from (select u.id, u.created_at, u.search_words from users u ${gate ? sql`where ${gate}` : sql``} order by ${sortKey} offset 0) u
    where ${matches} order by ${sortKey} limit ${bounds.limit} offset ${bounds.offset}`;
}

type ListRow = Omit<UserListRow, 'id'> & { id: string | null; total: number; estimate: number | null };

/**
 * One page of users with their account number, in one round trip. Without a search the total is the
 * users counter (kept exact by triggers, see the admin-counters migration). A search by words,
 * newest first, that the statistics say is broad is walked alone (listBroadWord); any other search
 * goes through listMatching.
 */
export async function listUsers(db: DB, query: UserListQuery): Promise<Paginated<UserListRow>> {
  const offset = (query.page - 1) * query.pageSize;
  const sortKey = sql`${SORT_COLUMNS[query.sort]} ${sql.raw(query.order)}, u.id ${sql.raw(query.order)}`;
  if (!query.search) {
    const result = await sql<ListRow>`
      with page as (select ${LIST_COLUMNS} from users u order by ${sortKey} limit ${query.pageSize} offset ${offset})
      select t.total, null as estimate, u.*, a.number from (select value::int as total from admin_counters where name = 'users') t
      left join page u on true
      left join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
      order by ${sortKey}`.execute(db);
    return { ...pageOf(result.rows), page: query.page, pageSize: query.pageSize, total: result.rows[0]?.total ?? 0 };
  }
  const asked = searchKind(query.search);
  const words = asked.kind === 'words' && query.sort === 'createdAt' ? wordsOf(query.search) : [];
  if (words.length === 1) {
    const estimate = await estimatedWithWord(db, words[0] as string);
    if (estimate >= SEARCH_WALK_ONLY_MIN) {
      const broad = await listBroadWord(db, query, offset, sortKey, estimate);
      if (broad) return broad;
    }
  }
  return listMatching(db, query, offset, sortKey, asked, asked.kind === 'words' && query.sort === 'createdAt');
}

/** A page's rows without the statement's totals (a page past the end is one row with no user). */
function pageOf(rows: ListRow[]): { items: UserListRow[] } {
  return { items: rows.filter((row): row is ListRow & { id: string } => row.id !== null).map(({ total: _total, estimate: _estimate, ...row }) => row) };
}

/**
 * The matches are found once (the word, prefix or key index the planner prefers), up to
 * SEARCH_COUNT_EXACT_MAX + 1 of them: when that is all of them, they are the count and the page is
 * sorted out of them; past it (a common name among a million customers) the page is read on its
 * own, down the sort order's index (only when needed: a gate the executor checks first), and the
 * total is PostgreSQL's estimate, marked as such (ADR 027), planned once in the same statement
 * (plan_rows of migration 62: one round trip, not two). The search index is walked once, not
 * once for the count and again for the page. That walk selects only ids, so the newest-first
 * index, which carries each user's words (migration 61), answers it without visiting the table;
 * the page's rows are read afterwards.
 *
 * `planOnce` (a search by words, newest first): the statement is prepared and every plan of it is
 * the same whatever was typed, so PostgreSQL keeps one generic plan instead of planning each call
 * (0.7-0.9 ms at a million customers, a fifth of the search): the query is a value the planner does
 * not see, and the page walks the newest-first index whatever the estimates (a subquery with
 * OFFSET 0 is planned on its own, so the match is checked on the index's rows in its order).
 */
async function listMatching(
  db: DB,
  query: UserListQuery,
  offset: number,
  sortKey: RawBuilder<unknown>,
  asked: SearchKind,
  planOnce: boolean,
): Promise<Paginated<UserListRow>> {
  const search = query.search as string;
  const condition = searchCondition(search, asked);
  const matches = planOnce ? matchesWordsUnseen(sql`u.search_words`, search) : condition;
  const estimate = planRows(db, condition);
  const bounds = pageBounds(query.pageSize, offset, planOnce);
  const { limit, offset: skip } = bounds;
  const gate = sql<SqlBool>`(select total from counted) > ${EXACT_MAX}`;
  const walk = planOnce
    ? walkedPage(sortKey, matches, bounds, gate)
    : sql`select u.id from users u where ${gate} and ${matches}
          order by ${sortKey} limit ${limit} offset ${skip}`;
  const statement = sql<ListRow>`
    with found as materialized (select ${LIST_COLUMNS} from users u where ${matches} limit ${sql.lit(SEARCH_COUNT_EXACT_MAX + 1)}),
    counted as materialized (
      select c.total, ${estimate ? sql`case when c.total > ${EXACT_MAX} then ${estimate} end` : sql`null`} as estimate
      from (select count(*)::int as total from found) c),
    page as (
      (select * from found u where (select total from counted) <= ${EXACT_MAX} order by ${sortKey} limit ${limit} offset ${skip})
      union all
      (select ${LIST_COLUMNS} from users u join (${walk}) k on k.id = u.id))
    select t.total, t.estimate, u.*, a.number from counted t
    left join page u on true
    left join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
    order by ${sortKey}`.compile(db);
  const { rows } = await db.executeQuery(planOnce ? prepared(statement) : statement);
  const { items } = pageOf(rows);
  const counted = rows[0]?.total ?? 0;
  if (counted <= SEARCH_COUNT_EXACT_MAX) return { items, page: query.page, pageSize: query.pageSize, total: counted };
  // Never fewer than were counted, nor than the pages already walked past.
  const total = Math.max(Number(rows[0]?.estimate ?? 0), counted, offset + items.length);
  return { items, page: query.page, pageSize: query.pageSize, total, totalEstimated: true };
}

/**
 * A broad one-word search, newest first: no count (it would read the word's whole list in the
 * search index and a thousand rows only to say "more than a thousand"), only the walk down the
 * newest-first index that the page needs, in a prepared statement with one generic plan. Its
 * total is the statistics' estimate, unless the walk ran out of matches: then the count is exact.
 * Null for a page past the end (the total is then unknown here: the caller counts).
 */
async function listBroadWord(
  db: DB,
  query: UserListQuery,
  offset: number,
  sortKey: RawBuilder<unknown>,
  estimate: number,
): Promise<Paginated<UserListRow> | null> {
  const walk = walkedPage(sortKey, matchesWordsUnseen(sql`u.search_words`, query.search as string), pageBounds(query.pageSize, offset, true));
  const statement = sql<ListRow>`
    select 0 as total, null as estimate, ${LIST_COLUMNS}, a.number from (${walk}) k
    join users u on u.id = k.id
    left join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
    order by ${sortKey}`.compile(db);
  const { items } = pageOf((await db.executeQuery(prepared(statement))).rows);
  if (items.length === 0 && offset > 0) return null;
  if (items.length < query.pageSize) return { items, page: query.page, pageSize: query.pageSize, total: offset + items.length };
  return { items, page: query.page, pageSize: query.pageSize, total: Math.max(Math.round(estimate), offset + items.length), totalEstimated: true };
}

interface WordStatistics {
  readAt: number;
  /** The most common words of users.search_words (ANALYZE's sample), with the share of users having each. */
  words: Array<{ word: string; share: number }>;
  users: number;
}
const wordStatistics = new WeakMap<DB, WordStatistics>();

/**
 * How many users the planner's statistics say have a word starting with `start` (the last word of
 * a search is a word's start): the shares of the most common words it starts (pg_stats'
 * most_common_elems of users.search_words) times the users. 0 when the statistics name no such
 * word (a word rarer than their commonest, or a table never analyzed). Read at most once per
 * WORD_STATISTICS_TTL_MS per process.
 */
async function estimatedWithWord(db: DB, start: string, now = Date.now()): Promise<number> {
  let statistics = wordStatistics.get(db);
  if (!statistics || now - statistics.readAt >= WORD_STATISTICS_TTL_MS) {
    const { rows } = await sql<{ words: string[] | null; shares: number[] | null; users: number }>`
      select s.most_common_elems::text::text[] as words, s.most_common_elem_freqs as shares, greatest(c.reltuples, 0)::float8 as users
      from pg_class c
      left join pg_stats s on s.schemaname = current_schema() and s.tablename = 'users' and s.attname = 'search_words'
      where c.oid = 'users'::regclass`.execute(db);
    const row = rows[0];
    const shares = row?.shares ?? [];
    statistics = { readAt: now, users: Number(row?.users ?? 0), words: (row?.words ?? []).map((word, index) => ({ word, share: Number(shares[index] ?? 0) })) };
    wordStatistics.set(db, statistics);
  }
  let share = 0;
  for (const { word, share: each } of statistics.words) if (word.startsWith(start)) share += each;
  return share * statistics.users;
}

export function findUser(db: DB, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: DB, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Locks the user row for a staff change (use inside a transaction). */
export function lockUser(trx: DB, id: string): Promise<User | undefined> {
  return trx.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function emailTakenByAnother(db: DB, email: string, exceptId: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).where('id', '!=', exceptId).executeTakeFirst()) !== undefined;
}

/** One account per email address. */
export const EMAIL_UNIQUE_CONSTRAINT = 'users_email_key';
/** Refused by the database: no admin is ever disabled. */
export const ADMIN_NEVER_DISABLED_CONSTRAINT = 'users_admin_never_disabled';

export interface UserChange {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  state: string;
  verificationStatus: VerificationStatus;
  isBlocked: boolean;
  isAccountDisabled: boolean;
}

export function updateUser(trx: DB, id: string, change: UserChange): Promise<User> {
  return trx
    .updateTable('users')
    .set({
      first_name: change.firstName,
      last_name: change.lastName,
      email: change.email,
      phone: change.phone,
      address: change.address,
      state: change.state,
      verification_status: change.verificationStatus,
      is_blocked: change.isBlocked,
      is_account_disabled: change.isAccountDisabled,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Closing: the row stays (entries point at its accounts), its personal data goes, sign-in stops. */
export async function anonymizeUser(trx: DB, id: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      first_name: 'Closed',
      last_name: 'customer',
      email: `closed-${id}@closed.invalid`,
      password_hash: '!closed',
      phone: '',
      address: '',
      state: '',
      date_of_birth: null,
      sex: null,
      country_code: null,
      occupation: null,
      annual_income_range: null,
      ssn_tin: null,
      profile_picture: null,
      is_account_disabled: true,
      closed_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteUser(trx: DB, id: string): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * Runs a delete under a savepoint and undoes it when another domain's row (a loan...) still refers
 * to what it deletes: a RESTRICT or NO ACTION foreign key refuses it. Answers undefined then.
 */
export async function unlessReferenced<T>(trx: DB, work: () => Promise<T>): Promise<T | undefined> {
  await sql`savepoint unless_referenced`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint unless_referenced`.execute(trx);
    return result;
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    await sql`rollback to savepoint unless_referenced`.execute(trx);
    return undefined;
  }
}

/** Every staff member, for the audit log's filter. */
export function listStaff(db: DB, limit: number) {
  return db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('is_admin', '=', true).orderBy('email').limit(limit).execute();
}

/** "First Last" of each of these users (the audit log names its targets). */
export async function displayNames(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`]));
}
