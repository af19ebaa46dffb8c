import type { DB } from '../db/database';

export interface AuditInput {
  action: string;
  targetUserId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Who acted and from where: a service's actor (or, while routes still pass it, a request). */
export interface AuditActor {
  user: { id: string; email: string } | null;
  ip?: string | null;
}

/**
 * Writes one staff (or security) action to the append-only audit log. Pass the transaction that
 * makes the change, so the change and its record commit together or not at all. (The log's read
 * side, for the back office, is audit/repository.ts.)
 *
 * `audit_log` is a view (ADR 014): the database keeps the actor's email and address, before,
 * after and reason apart as the record's erasable personal part, stores its salted hash with the
 * record, and queues the record for the audit chain's sealer (audit/sealer.ts).
 */
export async function audit(db: DB, actor: AuditActor | null, input: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor?.user?.id ?? null,
      actor_email: actor?.user?.email ?? null,
      action: input.action,
      target_user_id: input.targetUserId ?? null,
      target_type: input.targetType ?? null,
      target_id: input.targetId ?? null,
      before: input.before === undefined ? null : JSON.stringify(input.before),
      after: input.after === undefined ? null : JSON.stringify(input.after),
      reason: input.reason ?? null,
      ip: actor?.ip ?? null,
    })
    .execute();
}

/**
 * One action on something several customers share (a journal entry between two of them): one
 * record about each, so every customer's audit trail shows what was done to their money (and each
 * record is erased with its own customer); one record about no one when no customer is touched.
 */
export async function auditEach(db: DB, actor: AuditActor | null, customerIds: readonly string[], input: Omit<AuditInput, 'targetUserId'>): Promise<void> {
  for (const targetUserId of customerIds.length > 0 ? customerIds : [null]) await audit(db, actor, { ...input, targetUserId });
}

/**
 * Erases the personal part of every audit record about (or by) a customer who is being closed or
 * deleted, in that transaction. The records stay, with their salted hash of what was erased, so the
 * audit chain still verifies; the back office shows "erased" in their place.
 */
export async function eraseAuditPersonalData(trx: DB, userId: string): Promise<number> {
  const erased = await trx
    .deleteFrom('audit_personal')
    .where('audit_id', 'in', (eb) =>
      eb
        .selectFrom('audit_records')
        .select('id')
        .where((where) => where.or([where('target_user_id', '=', userId), where('actor_id', '=', userId)])),
    )
    .executeTakeFirst();
  return Number(erased.numDeletedRows);
}
