import { sql, type Selectable, type Updateable } from 'kysely';
import type { LoanStatus } from '../../shared/contracts/loans';
import type { DB } from '../db/database';
import { type PageRequest, paginate } from '../db/paginate';
import type { LoansTable } from '../db/schema';

export type LoanRow = Selectable<LoansTable>;
export type LoanTerms = Pick<LoanRow, 'loan_type' | 'amount_cents' | 'duration_months' | 'purpose' | 'annual_rate_bps' | 'monthly_payment_cents'>;
export type LoanCustomer = { first_name: string; last_name: string; email: string; verification_status: string };

export function customerLoans(db: DB, userId: string, limit: number): Promise<LoanRow[]> {
  return db.selectFrom('loans').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
}

/** Serializes one customer's applications (the open-application limit holds under concurrency). */
export async function lockCustomer(trx: DB, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

export async function countPending(db: DB, userId: string): Promise<number> {
  const { open } = await db
    .selectFrom('loans')
    .select((eb) => eb.fn.countAll<string>().as('open'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(open);
}

export function insertLoan(trx: DB, userId: string, terms: LoanTerms): Promise<LoanRow> {
  return trx
    .insertInto('loans')
    .values({ user_id: userId, ...terms })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks a loan for a change; `userId` limits it to that customer's loans. */
export function findLoan(db: DB, id: string): Promise<LoanRow | undefined> {
  return db.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockLoan(trx: DB, id: string, userId?: string): Promise<LoanRow | undefined> {
  let query = trx.selectFrom('loans').selectAll().where('id', '=', id);
  if (userId) query = query.where('user_id', '=', userId);
  return query.forUpdate().executeTakeFirst();
}

export function updateLoan(trx: DB, id: string, change: Updateable<LoansTable>): Promise<LoanRow> {
  return trx
    .updateTable('loans')
    .set({ ...change, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function loanQueue(db: DB, status: LoanStatus | 'all', page: PageRequest) {
  let query = db
    .selectFrom('loans')
    .innerJoin('users', 'users.id', 'loans.user_id')
    .selectAll('loans')
    .select(['users.first_name', 'users.last_name', 'users.email', 'users.verification_status']);
  if (status !== 'all') query = query.where('loans.status', '=', status);
  return paginate(query.orderBy('loans.created_at', status === 'pending' ? 'asc' : 'desc').orderBy('loans.id'), page);
}

export function loanCustomer(db: DB, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
}

/** The customer's checking account: where a loan is paid out and where its installments come from. */
export async function checkingAccountId(db: DB, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', 'checking').executeTakeFirst();
  return row?.id;
}

/** What a customer still owes on approved loans (closing the customer needs this to be zero). */
export async function amountOwed(db: DB, userId: string): Promise<{ cents: number; loans: number }> {
  const owed = await db
    .selectFrom('loans')
    .select(({ fn }) => [fn.sum<string>(sql`amount_cents - principal_repaid_cents`).as('cents'), fn.countAll<number>().as('loans')])
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .where('repaid_at', 'is', null)
    .executeTakeFirst();
  return { cents: Number(owed?.cents ?? 0), loans: Number(owed?.loans ?? 0) };
}
