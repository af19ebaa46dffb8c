import { sql } from 'kysely';
import { type ApprovalKind, type ApprovalPending, APPROVAL_TTL_DAYS, awaitingApproval } from '../../shared/contracts/approvals';
import { audit } from '../audit/audit';
import type { ActorContext } from '../context';
import type { DB } from '../db/database';
import { inTransaction } from '../db/transaction';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { uuidv7 } from '../ledger/uuid';
import { conflict } from '../lib/errors';
import type { Outcome } from '../lib/outcome';

export const SAME_REQUEST_WAITING_MESSAGE = 'The same request is already waiting for a second staff member: see Approvals.';

// What a domain service needs of four eyes (issue 15, ADR 023): whether its change must wait for a
// second staff member, and how to file the request. The queue itself (list, approve, reject,
// cancel, expire) is approvals/service.ts, which calls the domain services back through
// approvals/executors.ts with a gate.

/**
 * Handed to a domain service when an approval carries its change out. The service calls `claim`
 * first thing inside the transaction that makes the change: it locks the approval row, checks it
 * is still pending and marks it approved, so the change and the decision commit together and two
 * approvers clicking at once change things once (the second waits on the lock, then finds it decided).
 */
export interface ApprovalGate {
  id: string;
  /** The staff member who asked (the change is theirs; the approver is recorded on the approval). */
  requestedBy: string;
  claim(trx: DB): Promise<void>;
}

/** True when this call must become a pending approval: four eyes are on and no approval is carrying it out. */
export const needsApproval = (ctx: ActorContext, gate: ApprovalGate | undefined): boolean => ctx.config.fourEyes && !gate;

export interface ApprovalRequest {
  kind: ApprovalKind;
  customerId: string | null;
  /** The staff member a staff change is about: they may not approve it either. */
  subjectUserId?: string | null;
  /** What is asked, in words; it names no person (the customer is shown from the users table). */
  summary: string;
  /** Exactly what was asked, as the call received it: the approval carries out this and nothing else. */
  payload: Record<string, unknown>;
}

/**
 * Files a request for a second staff member, audited, with the call's idempotency record (a retry
 * answers the same approval). The form shows the spec's message followed by the awaiting suffix.
 */
export async function requestApproval(
  ctx: ActorContext,
  request: ApprovalRequest,
  ticket: IdempotencyTicket | null,
  message: string,
): Promise<Outcome<ApprovalPending>> {
  const now = ctx.clock.now();
  const id = uuidv7(now.getTime());
  return inTransaction(ctx.db, async (trx) => {
    // The same ask twice (a second click, another staff member) would have the second approver
    // carry it out twice or fail late: refused while the first waits. The lock makes two at once
    // take turns, so the second sees the first.
    const payload = JSON.stringify(request.payload);
    const customerId = request.customerId ?? null;
    const subjectUserId = request.subjectUserId ?? null;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`approval:${request.kind}:${customerId}:${subjectUserId}:${payload}`}, 0))`.execute(trx);
    const waiting = await trx
      .selectFrom('approvals')
      .select('requested_at')
      .where('kind', '=', request.kind)
      .where('customer_id', customerId === null ? 'is' : '=', customerId)
      .where('subject_user_id', subjectUserId === null ? 'is' : '=', subjectUserId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .where(sql<boolean>`payload = ${payload}::jsonb`)
      .executeTakeFirst();
    if (waiting) throw conflict(SAME_REQUEST_WAITING_MESSAGE);
    await trx
      .insertInto('approvals')
      .values({
        id,
        kind: request.kind,
        requested_by: ctx.actor.user.id,
        requested_at: now,
        expires_at: new Date(now.getTime() + APPROVAL_TTL_DAYS * 86_400_000),
        customer_id: customerId,
        subject_user_id: subjectUserId,
        summary: request.summary,
        payload,
      })
      .execute();
    await audit(trx, ctx.actor, {
      action: 'approval.request',
      targetUserId: request.customerId ?? request.subjectUserId ?? null,
      targetType: 'approval',
      targetId: id,
      before: null,
      after: { kind: request.kind, summary: request.summary, payload: request.payload, status: 'pending' },
    });
    const outcome: Outcome<ApprovalPending> = { data: { approvalId: id, status: 'pending' }, message: awaitingApproval(message), accepted: true };
    if (ticket) await storeOutcome(trx, ticket, outcome);
    return outcome;
  });
}
