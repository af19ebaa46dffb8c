import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { UserSortField } from '../../shared/contracts/admin';
import type { Paginated } from '../../shared/contracts/common';
import type { DB } from '../db/database';
import { isForeignKeyViolation } from '../db/errors';
import { hasWord, matchesWords } from '../db/word-search';
import type { User, VerificationStatus } from '../db/schema';
import type { StaffRole } from '../../shared/staff-roles';

// The back office's queries on the users table: the customers list, one customer, staff edits, and
// closing or deleting (DESIGN.md rule 6). Other domains' rows go through their own erase functions.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The search box: an account number (4 to 10 digits: its start), a user id, or words of a name or
 * email address, each a whole word but the last, which may be a word's start ("mary zimm"; ADR 027).
 * Every branch is served by an index: account numbers' prefixes, the primary key, and the word
 * index of migration 58 (the query is built by the same splitting as the stored words).
 */
function searchCondition(search: string): RawBuilder<SqlBool> {
  const digits = search.replace(/[\s-]/g, '');
  if (/^\d{4,10}$/.test(digits)) {
    // A whole number (ten digits) is one account: asked as such, PostgreSQL plans it in a tenth of
    // the time it takes to weigh a prefix against the numbers' histogram (0.1 against 0.3-2 ms).
    const match = digits.length === 10 ? sql`number = ${digits}` : sql`number like ${`${digits}%`}`;
    return sql<SqlBool>`u.id in (select owner_id from ledger_accounts where owner_id is not null and ${match})`;
  }
  if (UUID.test(search)) return sql<SqlBool>`u.id = ${search.toLowerCase()}::uuid`;
  // Nothing but punctuation is no word at all: nothing matches it.
  return hasWord(search) ? matchesWords(sql`u.search_words`, search) : sql<SqlBool>`false`;
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

/** The columns a list row shows (not every column of users: a page parses only what it shows). */
const LIST_COLUMNS = sql.raw(
  'u.id, u.first_name, u.last_name, u.email, u.is_admin, u.staff_role, u.is_blocked, u.is_account_disabled, u.verification_status, u.closed_at, u.created_at',
);

/**
 * One page of users with their account number, in one round trip. Without a search the total is the
 * users counter (kept exact by triggers, see the admin-counters migration). With one, the matches
 * are found once (the word, prefix or key index the planner prefers), up to
 * SEARCH_COUNT_EXACT_MAX + 1 of them: when that is all of them, they are the count and the page is
 * sorted out of them; past it (a common name among a million customers) the page is read on its
 * own, down the sort order's index (only when needed: a gate the executor checks first), and the
 * total is PostgreSQL's estimate, marked as such (ADR 027), planned once in the same statement
 * (plan_rows of migration 62: one round trip, not two). The search index is walked once, not
 * once for the count and again for the page. That walk selects only ids, so the newest-first
 * index, which carries each user's words (migration 61), answers it without visiting the table;
 * the page's rows are read afterwards.
 */
export async function listUsers(db: DB, query: UserListQuery): Promise<Paginated<UserListRow>> {
  const direction = sql.raw(query.order);
  const offset = (query.page - 1) * query.pageSize;
  const sortKey = sql`${SORT_COLUMNS[query.sort]} ${direction}, u.id ${direction}`;
  const condition = query.search ? searchCondition(query.search) : null;
  const estimate = condition ? planRows(db, condition) : null;
  const source = condition
    ? sql`with found as materialized (select ${LIST_COLUMNS} from users u where ${condition} limit ${SEARCH_COUNT_EXACT_MAX + 1}),
          counted as materialized (
            select c.total, ${estimate ? sql`case when c.total > ${SEARCH_COUNT_EXACT_MAX} then ${estimate} end` : sql`null`} as estimate
            from (select count(*)::int as total from found) c),
          page as (
            (select * from found u where (select total from counted) <= ${SEARCH_COUNT_EXACT_MAX} order by ${sortKey} limit ${query.pageSize} offset ${offset})
            union all
            (select ${LIST_COLUMNS} from users u join (
               select u.id from users u where (select total from counted) > ${SEARCH_COUNT_EXACT_MAX} and ${condition}
               order by ${sortKey} limit ${query.pageSize} offset ${offset}) k on k.id = u.id))
          select t.total, t.estimate, u.*, a.number from counted t`
    : sql`with page as (select ${LIST_COLUMNS} from users u order by ${sortKey} limit ${query.pageSize} offset ${offset})
          select t.total, null as estimate, u.*, a.number from (select value::int as total from admin_counters where name = 'users') t`;
  const result = await sql<Omit<UserListRow, 'id'> & { id: string | null; total: number; estimate: number | null }>`
    ${source}
    left join page u on true
    left join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
    order by ${sortKey}`.execute(db);
  // A page past the end still carries the total, on one row with no user.
  const items = result.rows.filter((row): row is typeof row & { id: string } => row.id !== null).map(({ total: _total, estimate: _estimate, ...row }) => row);
  const counted = result.rows[0]?.total ?? 0;
  if (!condition || counted <= SEARCH_COUNT_EXACT_MAX) return { items, page: query.page, pageSize: query.pageSize, total: counted };
  // Never fewer than were counted, nor than the pages already walked past.
  const total = Math.max(Number(result.rows[0]?.estimate ?? 0), counted, offset + items.length);
  return { items, page: query.page, pageSize: query.pageSize, total, totalEstimated: true };
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
