import { sql } from 'kysely';
import type { DB } from '../db/database';

// The queries of the per-customer caps on transfer codes and the hold on outgoing payments. Codes
// are counted from one_time_codes itself (served by its (user_id, purpose, created_at) index): a
// code request is a row, a wrong code is an attempt on one.

/**
 * Serializes one customer's code requests for the rest of the transaction, so two requests at
 * once cannot both see room for one more code. Use inside a transaction.
 */
export async function lockCustomerCodeRequests(trx: DB, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`transfer-codes:${userId}`}, 0))`.execute(trx);
}

/**
 * Approvals a customer asked for after `since` (emailed transfer codes and passkey challenges, ADR
 * 024: both are one approval request of the hour), and when the oldest of them was.
 */
export async function transferCodesIssuedSince(db: DB, userId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const codes = db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'transfer')
    .where('created_at', '>', since);
  const challenges = db.selectFrom('payment_approvals').select('created_at').where('user_id', '=', userId).where('created_at', '>', since);
  const row = await db
    .selectFrom(codes.unionAll(challenges).as('requests'))
    .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(created_at)`.as('oldest')])
    .executeTakeFirstOrThrow();
  return { count: row.count, oldest: row.oldest ? new Date(row.oldest) : null };
}

/** Failed approvals of a customer on those asked for after `since`: wrong codes and refused passkey answers. */
export async function wrongTransferCodesSince(db: DB, userId: string, since: Date): Promise<number> {
  const codes = db
    .selectFrom('one_time_codes')
    .select('attempts')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'transfer')
    .where('created_at', '>', since);
  const challenges = db.selectFrom('payment_approvals').select('attempts').where('user_id', '=', userId).where('created_at', '>', since);
  const row = await db
    .selectFrom(codes.unionAll(challenges).as('failures'))
    .select(sql<number>`coalesce(sum(attempts), 0)::int`.as('wrong'))
    .executeTakeFirstOrThrow();
  return row.wrong;
}

/** A customer's hold and counting start, locked for the rest of the transaction. Use inside a transaction. */
export function lockHold(trx: DB, userId: string) {
  return trx
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'is_admin', 'payments_held_until', 'code_failures_since'])
    .where('id', '=', userId)
    .where('closed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function findHold(db: DB, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'is_admin', 'payments_held_until', 'code_failures_since'])
    .where('id', '=', userId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
}

/** Sets a customer's hold. The wrong codes that caused it stay counted (they leave the day's count by themselves). */
export async function startHold(trx: DB, userId: string, heldUntil: Date): Promise<void> {
  await trx.updateTable('users').set({ payments_held_until: heldUntil }).where('id', '=', userId).execute();
}

/** Lifts a customer's hold; wrong codes count again from `countFrom`, so a released customer starts afresh. */
export async function releaseHold(trx: DB, userId: string, countFrom: Date): Promise<void> {
  await trx.updateTable('users').set({ payments_held_until: null, code_failures_since: countFrom }).where('id', '=', userId).execute();
}
