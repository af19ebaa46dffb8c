import { sql } from 'kysely';
import type { AdminTransactionDto, CustomerAccountKind, TransactionDto, TransactionListQuery, TransactionPage } from '../../shared/contracts/transactions';
import type { DB } from '../db/database';
import type { User } from '../db/schema';

export interface ListFilter extends TransactionListQuery {
  page: number;
  pageSize: number;
  /** Only this customer's lines; all customers' when null (staff). */
  userId: string | null;
  /** Leave out entries that were reversed. */
  completedOnly?: boolean;
}

function baseQuery(db: DB, filter: ListFilter) {
  let query = db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .leftJoin('journal_entries as r', 'r.reversal_of', 'e.id')
    .where('a.owner_id', 'is not', null);
  if (filter.userId) query = query.where('a.owner_id', '=', filter.userId);
  if (filter.account) query = query.where('a.kind', '=', filter.account);
  if (filter.type === 'credit') query = query.where('p.amount', '>', 0);
  if (filter.type === 'debit') query = query.where('p.amount', '<', 0);
  if (filter.from) query = query.where('e.value_date', '>=', filter.from);
  if (filter.to) query = query.where('e.value_date', '<=', filter.to);
  if (filter.completedOnly) query = query.where('r.id', 'is', null);
  if (filter.amountMin !== undefined) query = query.where(sql<number>`abs(p.amount)`, '>=', filter.amountMin);
  if (filter.amountMax !== undefined) query = query.where(sql<number>`abs(p.amount)`, '<=', filter.amountMax);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    // What the line shows (a staff note, else the posting's memo, else the entry's description)
    // or its counterparty; trigram indexes serve each column (migration 2026-11-24-31, ADR 013).
    query = query.where((eb) =>
      eb.or([
        eb('p.memo', 'ilike', pattern),
        eb('p.counterparty', 'ilike', pattern),
        eb('e.description', 'ilike', pattern),
        eb.exists(eb.selectFrom('entry_notes as n').select('n.id').whereRef('n.entry_id', '=', 'e.id').where('n.description', 'ilike', pattern)),
      ]),
    );
  }
  return query;
}

/** A search text as a LIKE pattern's literal part: %, _ and the escape character match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

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

function selectRows(db: DB, filter: ListFilter) {
  return baseQuery(db, filter)
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select([...POSTING_COLUMNS, 'u.first_name', 'u.last_name', latestNote()])
    .orderBy('p.entry_seq', 'desc')
    .orderBy('a.kind')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
}

/** One page of rows and the total that matches the filter. */
async function pageOf(db: DB, filter: ListFilter) {
  const [rows, count] = await Promise.all([
    selectRows(db, filter).execute(),
    baseQuery(db, filter)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
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
    .select(['a.id', 'u.first_name', 'u.last_name', 'u.closed_at'])
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
    .select(['p.account_id', 'p.amount', 'p.memo', 'a.owner_id'])
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

/** The customer an entry touches (for the audit record), if any. */
export async function entryCustomer(db: DB, entryId: string): Promise<string | null> {
  const row = await db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select('a.owner_id')
    .where('p.entry_id', '=', entryId)
    .where('a.owner_id', 'is not', null)
    .executeTakeFirst();
  return row?.owner_id ?? null;
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
