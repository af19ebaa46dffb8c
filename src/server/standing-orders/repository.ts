import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DB } from '../db/database';
import type { StandingOrderPaymentsTable, StandingOrdersTable } from '../db/schema';

export type StandingOrderRow = Selectable<StandingOrdersTable>;
export type NewStandingOrder = Insertable<StandingOrdersTable>;

/** A customer's orders: the active ones first (soonest next), then the newest others. */
export function listOrders(db: DB, userId: string, limit: number): Promise<StandingOrderRow[]> {
  return db
    .selectFrom('standing_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.case().when('status', '=', 'active').then(0).else(1).end())
    .orderBy('next_due_date', 'asc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One of this customer's orders (someone else's id finds nothing). */
export function findOrder(db: DB, userId: string, id: string): Promise<StandingOrderRow | undefined> {
  return db.selectFrom('standing_orders').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Serializes one customer's creations (locks their user row), so the count limit holds under concurrent calls. */
export async function lockOwner(trx: DB, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

export async function countActive(db: DB, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom('standing_orders')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function insertOrder(trx: DB, row: NewStandingOrder): Promise<StandingOrderRow> {
  return trx.insertInto('standing_orders').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Locks one of this customer's orders for a change (cancel). */
export function lockOwnOrder(trx: DB, userId: string, id: string): Promise<StandingOrderRow | undefined> {
  return trx.selectFrom('standing_orders').selectAll().where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

export function updateOrder(trx: DB, id: string, change: Updateable<StandingOrdersTable>): Promise<StandingOrderRow> {
  return trx.updateTable('standing_orders').set(change).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A saved payee of this customer. */
export function findPayee(db: DB, userId: string, payeeId: string) {
  return db
    .selectFrom('beneficiaries')
    .select(['id', 'name', 'account_number', 'routing_number', 'bank_name'])
    .where('id', '=', payeeId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The checking account an account number names at this bank, with its owner (the account a transfer credits). */
export function findCheckingByNumber(db: DB, accountNumber: string) {
  return db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.owner_id', 'u.closed_at', 'u.first_name', 'u.last_name'])
    .where('a.number', '=', accountNumber)
    .where('a.kind', '=', 'checking')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- the job

/**
 * Active orders with an occurrence due by `today` (bank date) whose retry, if any, is due by
 * `now`; oldest first. `exclude`: orders this run already found busy or idle.
 */
export function dueOrderIds(db: DB, input: { today: string; now: Date; exclude: string[]; limit: number }): Promise<string[]> {
  let query = db
    .selectFrom('standing_orders')
    .select('id')
    .where('status', '=', 'active')
    .where('next_due_date', '<=', input.today)
    .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', input.now)]))
    .orderBy('next_due_date')
    .orderBy('id')
    .limit(input.limit);
  if (input.exclude.length > 0) query = query.where('id', 'not in', input.exclude);
  return query.execute().then((rows) => rows.map((row) => row.id));
}

/** Locks an order for its run; undefined when another run holds it (skip, it is being paid). */
export function lockOrderForRun(trx: DB, id: string): Promise<StandingOrderRow | undefined> {
  return trx.selectFrom('standing_orders').selectAll().where('id', '=', id).forUpdate().skipLocked().executeTakeFirst();
}

/** The payer as a run needs them: may they still send money, and their name for the payee's line. */
export function payerOf(db: DB, userId: string) {
  return db.selectFrom('users').select(['first_name', 'last_name', 'is_blocked', 'closed_at']).where('id', '=', userId).executeTakeFirstOrThrow();
}

/** Whether the customer owning a credited account has been closed since the order was made. */
export async function isAccountOwnerClosed(db: DB, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_accounts as a')
    .leftJoin('users as u', 'u.id', 'a.owner_id')
    .select('u.closed_at')
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  return !!row?.closed_at;
}

export async function insertPayment(trx: DB, row: Insertable<StandingOrderPaymentsTable>): Promise<void> {
  await trx.insertInto('standing_order_payments').values(row).execute();
}

/** The settled occurrences of an order, oldest first (tests and the ADR's checks). */
export function paymentsOf(db: DB, orderId: string) {
  return db.selectFrom('standing_order_payments').selectAll().where('standing_order_id', '=', orderId).orderBy('due_date').execute();
}

/** The customer's savings and checking account ids and their shared number (null: no accounts). */
export async function ownAccounts(db: DB, userId: string): Promise<{ number: string; savings: string; checking: string } | null> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'number'])
    .where('owner_id', '=', userId)
    .where('kind', 'in', ['savings', 'checking'])
    .execute();
  const savings = rows.find((row) => row.kind === 'savings');
  const checking = rows.find((row) => row.kind === 'checking');
  if (!savings || !checking) return null;
  return { number: checking.number ?? '', savings: savings.id, checking: checking.id };
}
