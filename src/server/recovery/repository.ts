import type { Selectable } from 'kysely';
import type { DB } from '../db/database';
import type { AccountRecoveriesTable } from '../db/schema';

export type RecoveryRow = Selectable<AccountRecoveriesTable>;
/** A recovery with the email of the staff member who started it. */
export type RecoveryView = RecoveryRow & { started_by_email: string | null };

export async function insertRecovery(
  trx: DB,
  row: { id: string; userId: string; startedBy: string; identityCheck: string; cancelTokenHash: string; createdAt: Date; effectiveAt: Date },
): Promise<RecoveryRow> {
  return trx
    .insertInto('account_recoveries')
    .values({
      id: row.id,
      user_id: row.userId,
      started_by: row.startedBy,
      identity_check: row.identityCheck,
      cancel_token_hash: row.cancelTokenHash,
      created_at: row.createdAt,
      effective_at: row.effectiveAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The customer's newest recovery, whatever its status. */
export function latestOf(db: DB, userId: string): Promise<RecoveryView | undefined> {
  return db
    .selectFrom('account_recoveries as r')
    .leftJoin('users as s', 's.id', 'r.started_by')
    .selectAll('r')
    .select('s.email as started_by_email')
    .where('r.user_id', '=', userId)
    .orderBy('r.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The customer's pending recovery, locked (use inside a transaction). */
export function lockPendingOf(trx: DB, userId: string): Promise<RecoveryRow | undefined> {
  return trx.selectFrom('account_recoveries').selectAll().where('user_id', '=', userId).where('status', '=', 'pending').forUpdate().executeTakeFirst();
}

/** The pending recovery a mailed link names, locked. */
export function lockPendingByToken(trx: DB, tokenHash: string): Promise<RecoveryRow | undefined> {
  return trx
    .selectFrom('account_recoveries')
    .selectAll()
    .where('cancel_token_hash', '=', tokenHash)
    .where('status', '=', 'pending')
    .forUpdate()
    .executeTakeFirst();
}

export async function markCancelled(trx: DB, id: string, via: 'link' | 'session' | 'staff', at: Date): Promise<RecoveryRow> {
  return trx
    .updateTable('account_recoveries')
    .set({ status: 'cancelled', cancelled_at: at, cancelled_via: via })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Pending recoveries whose time has come, locked and skipping any another runner holds (oldest first, at most `limit`). */
export function lockDue(trx: DB, now: Date, limit: number): Promise<RecoveryRow[]> {
  return trx
    .selectFrom('account_recoveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('effective_at', '<=', now)
    .orderBy('effective_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function markCompleted(trx: DB, id: string, at: Date): Promise<void> {
  await trx.updateTable('account_recoveries').set({ status: 'completed', completed_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();
}
