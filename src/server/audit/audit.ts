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
