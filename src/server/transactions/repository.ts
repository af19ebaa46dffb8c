import { type RawBuilder, sql } from 'kysely';
import type { AdminTransactionDto, CustomerAccountKind, TransactionDto, TransactionListQuery, TransactionPage } from '../../shared/contracts/transactions';
import type { DB } from '../db/database';
import type { User } from '../db/schema';
import { hasWord } from '../db/word-search';

export interface ListFilter extends TransactionListQuery {
  page: number;
  pageSize: number;
  /** Only this customer's lines; all customers' when null (staff). */
  userId: string | null;
  /** Leave out entries that were reversed. */
  completedOnly?: boolean;
}

/**
 * The filter as SQL conditions on postings p, accounts a, entries e and reversals r, and which of
 * a, e, r they need (the count joins only those). A customer's lines are found by their account
 * ids, given as values: the planner then knows how long that customer's history is (a business's
 * 100,000 lines or a student's 50) and picks its plan accordingly.
 */
function conditionsOf(filter: ListFilter, accountIds: string[] | null) {
  const where: Array<RawBuilder<unknown>> = [];
  const needs = { account: false, entry: false, reversal: false };
  if (accountIds) where.push(sql`p.account_id in (${sql.join(accountIds)})`);
  else {
    needs.account = true;
    where.push(sql`a.owner_id is not null`);
    if (filter.account) where.push(sql`a.kind = ${filter.account}`);
  }
  if (filter.type === 'credit') where.push(sql`p.amount > 0`);
  if (filter.type === 'debit') where.push(sql`p.amount < 0`);
  if (filter.amountMin !== undefined) where.push(sql`abs(p.amount) >= ${filter.amountMin}`);
  if (filter.amountMax !== undefined) where.push(sql`abs(p.amount) <= ${filter.amountMax}`);
  if (filter.from || filter.to) needs.entry = true;
  if (filter.from) where.push(sql`e.value_date >= ${filter.from}`);
  if (filter.to) where.push(sql`e.value_date <= ${filter.to}`);
  if (filter.completedOnly) {
    needs.entry = needs.reversal = true;
    where.push(sql`r.id is null`);
  }
  if (filter.q) where.push(hasWord(filter.q) ? sql`p.id in ${matchingPostings(filter.q, accountIds)}` : sql`false`);
  return { where: sql.join(where, sql` and `), needs };
}

/**
 * The postings whose words match (migration 2026-11-26-63b): every word typed is a word of the
 * posting's memo or counterparty, of its entry's description or of a staff note on the entry, the
 * last one typed may be a word's start. One branch per table, each naming the expression its
 * word index is built on, so a rare name is found without reading the whole history; an OR over
 * the joined tables could use none of them. history_query() splits what was typed as
 * history_words() splits the texts.
 */
function matchingPostings(search: string, accountIds: string[] | null) {
  const within = (alias: string) => (accountIds ? sql`and ${sql.ref(`${alias}.account_id`)} in (${sql.join(accountIds)})` : sql``);
  const query = sql`history_query(${search})`;
  return sql`(
    select p1.id from postings p1 where history_words(coalesce(p1.memo, '') || ' ' || coalesce(p1.counterparty, '')) @@ ${query} ${within('p1')}
    union
    select p2.id from postings p2 join journal_entries e2 on e2.id = p2.entry_id where history_words(e2.description) @@ ${query} ${within('p2')}
    union
    select p3.id from postings p3 join entry_notes n3 on n3.entry_id = p3.entry_id where history_words(n3.description) @@ ${query} ${within('p3')})`;
}

/** The customer's savings and checking account ids (or the one the filter names); null for every customer's lines (staff). */
async function accountIdsOf(db: DB, filter: ListFilter): Promise<string[] | null> {
  if (!filter.userId) return null;
  const rows = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('owner_id', '=', filter.userId)
    .where('kind', 'in', filter.account ? [filter.account] : ['savings', 'checking'])
    .execute();
  return rows.map((row) => row.id);
}

interface Row {
  id: string;
  entry_id: string;
  amount: number;
  balance_after: number;
  memo: string | null;
  counterparty: string | null;
  account: string;
  number: string | null;
  owner_id: string | null;
  kind: string;
  description: string;
  value_date: string;
  booked_at: Date;
  reversal_of: string | null;
  reversed_by: string | null;
  note: string | null;
  first_name?: string;
  last_name?: string;
}

export function toTransactionDto(row: Row): TransactionDto {
  return {
    _id: row.id,
    entryId: row.entry_id,
    description: row.note ?? row.memo ?? row.description,
    date: row.value_date,
    bookedAt: new Date(row.booked_at).toISOString(),
    amount: Math.abs(row.amount) / 100,
    transactionType: row.amount > 0 ? 'credit' : 'debit',
    account: row.account as TransactionDto['account'],
    kind: row.kind as TransactionDto['kind'],
    status: row.reversed_by ? 'reversed' : 'completed',
    reversalOf: row.reversal_of,
    reversedBy: row.reversed_by,
    counterparty: row.counterparty,
    balanceAfter: row.balance_after / 100,
  };
}

/** The columns every transaction line needs (postings p, accounts a, entries e, reversals r). */
const POSTING_COLUMNS = [
  'p.id',
  'p.entry_id',
  'p.amount',
  'p.balance_after',
  'p.memo',
  'p.counterparty',
  'a.kind as account',
  'a.number',
  'a.owner_id',
  'e.kind',
  'e.description',
  'e.value_date',
  'e.booked_at',
  'e.reversal_of',
  'r.id as reversed_by',
] as const;

/** The newest staff description note of the entry, if any. */
const latestNote = () => sql<string | null>`(select n.description from entry_notes n where n.entry_id = e.id order by n.id desc limit 1)`.as('note');

function selectRows(db: DB, filter: ListFilter, conditions: ReturnType<typeof conditionsOf>) {
  return db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .leftJoin('journal_entries as r', 'r.reversal_of', 'e.id')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select([...POSTING_COLUMNS, 'u.first_name', 'u.last_name', latestNote()])
    .where(sql<boolean>`${conditions.where}`)
    .orderBy('p.entry_seq', 'desc')
    .orderBy('a.kind')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
}

/** How many lines match: only the tables the filter needs are joined (counting a long history is one index scan). */
async function countRows(db: DB, conditions: ReturnType<typeof conditionsOf>): Promise<number> {
  const { needs } = conditions;
  const result = await sql<{ total: string }>`
    select count(*) as total from postings p
    ${needs.account ? sql`join ledger_accounts a on a.id = p.account_id` : sql``}
    ${needs.entry ? sql`join journal_entries e on e.id = p.entry_id` : sql``}
    ${needs.reversal ? sql`left join journal_entries r on r.reversal_of = e.id` : sql``}
    where ${conditions.where}`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** One page of rows and the total that matches the filter. */
async function pageOf(db: DB, filter: ListFilter) {
  const accountIds = await accountIdsOf(db, filter);
  if (accountIds?.length === 0) return { rows: [], total: 0 };
  const conditions = conditionsOf(filter, accountIds);
  const [rows, total] = await Promise.all([selectRows(db, filter, conditions).execute(), countRows(db, conditions)]);
  return { rows, total };
}

export async function listTransactions(db: DB, filter: ListFilter): Promise<TransactionPage> {
  const { rows, total } = await pageOf(db, filter);
  return { items: rows.map((row) => toTransactionDto(row as Row)), page: filter.page, pageSize: filter.pageSize, total };
}

export async function listAdminTransactions(db: DB, filter: ListFilter): Promise<TransactionPage<AdminTransactionDto>> {
  const { rows, total } = await pageOf(db, filter);
  return {
    items: rows.map((row) => ({
      ...toTransactionDto(row as Row),
      userId: row.owner_id ?? '',
      customerName: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
      accountNumber: row.number ?? '',
    })),
    page: filter.page,
    pageSize: filter.pageSize,
    total,
  };
}

/** The customer-side lines of one entry (for answers after posting). */
export async function entryLines(db: DB, entryId: string, userId: string | null): Promise<TransactionDto[]> {
  let query = db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .leftJoin('journal_entries as r', 'r.reversal_of', 'e.id')
    .select([...POSTING_COLUMNS, latestNote()])
    .where('p.entry_id', '=', entryId)
    .where('a.owner_id', 'is not', null);
  if (userId) query = query.where('a.owner_id', '=', userId);
  const rows = await query.orderBy('a.kind').execute();
  return rows.map((row) => toTransactionDto(row as Row));
}

// ---------------------------------------------------------------- money in and out per month

/**
 * A customer's credits and debits per month of value date, from `fromDate` (the first day of the
 * oldest month) on. Over both accounts, money moved between the customer's own accounts is
 * neither in nor out; over one account, every line of it counts.
 */
export async function monthlyTotals(db: DB, userId: string, fromDate: string, account: CustomerAccountKind | undefined) {
  const ownTransfer = sql<boolean>`exists (
      select 1 from postings other join ledger_accounts own on own.id = other.account_id
      where other.entry_id = p.entry_id and other.id <> p.id and own.owner_id = a.owner_id)`;
  let query = db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select([
      sql<string>`to_char(e.value_date, 'YYYY-MM')`.as('month'),
      sql<string>`coalesce(sum(p.amount) filter (where p.amount > 0), 0)`.as('in_cents'),
      sql<string>`coalesce(-sum(p.amount) filter (where p.amount < 0), 0)`.as('out_cents'),
    ])
    .where('a.owner_id', '=', userId)
    .where('a.kind', 'in', account ? [account] : ['savings', 'checking'])
    .where('e.value_date', '>=', fromDate)
    .groupBy(sql`1`);
  if (!account) query = query.where(sql<boolean>`not ${ownTransfer}`);
  const rows = await query.execute();
  return rows.map((row) => ({ month: row.month, inCents: Number(row.in_cents), outCents: Number(row.out_cents) }));
}

// ---------------------------------------------------------------- accounts and entries

export interface OwnAccounts {
  number: string;
  savings: { id: string; balance: number };
  checking: { id: string; balance: number };
}

/** A customer's savings and checking accounts with their balances (null: no such customer accounts). */
export async function findOwnAccounts(db: DB, userId: string): Promise<OwnAccounts | null> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'number', 'balance'])
    .where('owner_id', '=', userId)
    .where('kind', 'in', ['savings', 'checking'])
    .execute();
  const savings = rows.find((row) => row.kind === 'savings');
  const checking = rows.find((row) => row.kind === 'checking');
  if (!savings || !checking) return null;
  return { number: checking.number ?? '', savings: { id: savings.id, balance: savings.balance }, checking: { id: checking.id, balance: checking.balance } };
}

/** The checking account an account number names at this bank, with its owner. */
export function findPayeeByAccountNumber(db: DB, accountNumber: string) {
  return db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.owner_id', 'u.first_name', 'u.last_name', 'u.closed_at'])
    .where('a.number', '=', accountNumber)
    .where('a.kind', '=', 'checking')
    .executeTakeFirst();
}

export function findUser(db: DB, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** An entry by its own id or by the id of one of its postings (a history line's _id). */
export async function findEntry(db: DB, id: string) {
  const byPosting = await db.selectFrom('postings').select('entry_id').where('id', '=', id).executeTakeFirst();
  const entryId = byPosting?.entry_id ?? id;
  return db.selectFrom('journal_entries').selectAll().where('id', '=', entryId).executeTakeFirst();
}

export async function isReversed(db: DB, entryId: string): Promise<boolean> {
  return (await db.selectFrom('journal_entries').select('id').where('reversal_of', '=', entryId).executeTakeFirst()) !== undefined;
}

/** Every posting of an entry with the owner of its account. */
export function entryPostings(db: DB, entryId: string) {
  return db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .leftJoin('users as u', 'u.id', 'a.owner_id')
    .select(['p.account_id', 'p.amount', 'p.memo', 'a.owner_id', 'a.kind', 'a.number', 'u.first_name', 'u.last_name'])
    .where('p.entry_id', '=', entryId)
    .execute();
}

/** The newest staff note on an entry's description, if any. */
export function latestEntryNote(db: DB, entryId: string) {
  return db.selectFrom('entry_notes').select('description').where('entry_id', '=', entryId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function addEntryNote(db: DB, note: { entryId: string; description: string; authorId: string }): Promise<void> {
  await db.insertInto('entry_notes').values({ entry_id: note.entryId, description: note.description, author_id: note.authorId }).execute();
}

/** The customers whose accounts an entry touches, each once (an audit record about each). */
export async function entryCustomers(db: DB, entryId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select('a.owner_id')
    .distinct()
    .where('p.entry_id', '=', entryId)
    .where('a.owner_id', 'is not', null)
    .orderBy('a.owner_id')
    .execute();
  return rows.map((row) => row.owner_id).filter((id): id is string => id !== null);
}

/** Locks accounts in id order (the one order every writer uses) and reads their balances. */
export function lockAccounts(trx: DB, accountIds: string[]) {
  return trx
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'balance'])
    .where('id', 'in', [...accountIds].sort())
    .orderBy('id')
    .forUpdate()
    .execute();
}

export function accountNumberTaken(db: DB, number: string, exceptOwnerId: string) {
  return db.selectFrom('ledger_accounts').select('id').where('number', '=', number).where('owner_id', '!=', exceptOwnerId).executeTakeFirst();
}

export async function renumberCustomerAccounts(trx: DB, ownerId: string, number: string): Promise<void> {
  await trx.updateTable('ledger_accounts').set({ number }).where('owner_id', '=', ownerId).execute();
}
