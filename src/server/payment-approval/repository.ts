import { sql } from 'kysely';
import type { DB } from '../db/database';
import type { PaymentApprovalKind } from '../db/schema';

// The passkey approvals the bank handed out (table payment_approvals, ADR 024).

export async function insertApproval(
  db: DB,
  row: {
    userId: string;
    kind: PaymentApprovalKind;
    binding: string;
    nonce: string;
    challenge: string;
    amountCents: number;
    payee: string;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('payment_approvals')
    .values({
      user_id: row.userId,
      kind: row.kind,
      binding: row.binding,
      nonce: row.nonce,
      challenge: row.challenge,
      amount_cents: row.amountCents,
      payee: row.payee,
      expires_at: row.expiresAt,
      created_at: row.createdAt,
    })
    .execute();
}

/** One customer's approval by the challenge their passkey signed, locked. Use inside a transaction. */
export function lockApprovalByChallenge(trx: DB, userId: string, challenge: string) {
  return trx
    .selectFrom('payment_approvals')
    .select(['id', 'binding', 'nonce', 'challenge', 'expires_at', 'used_at', 'attempts'])
    .where('user_id', '=', userId)
    .where('challenge', '=', challenge)
    .forUpdate()
    .executeTakeFirst();
}

/** Spends an approval; a refused answer also counts as a failed approval (the day's cap). */
export async function spendApproval(trx: DB, id: string, usedAt: Date, refused: boolean): Promise<void> {
  await trx
    .updateTable('payment_approvals')
    .set({ used_at: usedAt, ...(refused ? { attempts: sql<number>`attempts + 1` } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Approvals that expired before `before` (used or not): the purge keeps a day for the caps. */
export async function deleteApprovalsExpiredBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('payment_approvals').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
