import { z } from 'zod';
import {
  type ApprovalDto,
  type ApprovalKind,
  type ApprovalStatus,
  APPROVAL_KINDS,
  APPROVAL_REFUSAL_MESSAGES,
  APPROVAL_STATUSES,
  approvalRefusal,
  approvedMessage,
  type ZApprovalListQuery,
} from '../../shared/contracts/approvals';
import type { Paginated } from '../../shared/contracts/common';
import { audit } from '../audit/audit';
import type { ActorContext, AppContext } from '../context';
import { inTransaction } from '../db/transaction';
import { sha256 } from '../auth/crypto';
import type { IdempotencyTicket } from '../ledger/idempotency';
import { AppError, conflict, forbidden, notFound } from '../lib/errors';
import { storedOutcome, type Outcome } from '../lib/outcome';
import type { ApprovalGate } from './request';
import { executorFor } from './executors';
import * as repository from './repository';

// The approval queue (issue 15, ADR 023): list, approve (carry out exactly what was asked), reject
// with a reason, cancel (the requester), expire after APPROVAL_TTL_DAYS.

export const SELF_APPROVAL_MESSAGE = APPROVAL_REFUSAL_MESSAGES.requester;
export const SUBJECT_APPROVAL_MESSAGE = APPROVAL_REFUSAL_MESSAGES.subject;
export const ROLE_MESSAGE = APPROVAL_REFUSAL_MESSAGES.role;
export const NOT_REQUESTER_MESSAGE = 'Only the staff member who asked for this change can cancel it.';
export const APPROVAL_NOT_FOUND = 'Approval request not found';
export const alreadyDecided = (status: string) => `This request is already ${status}.`;

type ListQuery = z.output<typeof ZApprovalListQuery>;

const name = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

export function toApprovalDto(row: repository.ApprovalListRow, now: Date): ApprovalDto {
  // A pending request past its time reads as expired even before the sweep marks it.
  const status = (row.status === 'pending' && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.status) as ApprovalStatus;
  return {
    id: row.id,
    kind: row.kind as ApprovalKind,
    requestedBy: { id: row.requested_by, name: name(row.requester_first, row.requester_last), email: row.requester_email },
    requestedAt: row.requested_at.toISOString(),
    customer: row.customer_id ? { id: row.customer_id, name: name(row.customer_first, row.customer_last), email: row.customer_email } : null,
    subjectId: row.subject_user_id,
    summary: row.summary,
    payload: (row.payload ?? {}) as Record<string, unknown>,
    status,
    decidedBy: row.decided_by ? { id: row.decided_by, name: name(row.decider_first, row.decider_last), email: row.decider_email } : null,
    decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
    reason: row.reason,
    expiresAt: row.expires_at.toISOString(),
  };
}

export async function listApprovals(ctx: AppContext, query: ListQuery): Promise<Paginated<ApprovalDto>> {
  await expireApprovals(ctx);
  const page = await repository.listApprovals(ctx.db, { status: query.status }, query);
  const now = ctx.clock.now();
  return { ...page, items: page.items.map((row) => toApprovalDto(row, now)) };
}

export async function countPending(ctx: AppContext): Promise<{ pending: number }> {
  return { pending: await repository.countPending(ctx.db, ctx.clock.now()) };
}

export const APPROVALS_EXPIRE_TASK = 'approvals_expire';

/** The expiry sweep (a job, and before each list): pending requests past their time, each audited. */
export async function expireApprovals(ctx: AppContext): Promise<number> {
  return inTransaction(ctx.db, async (trx) => {
    const expired = await repository.expireDue(trx, ctx.clock.now());
    for (const row of expired) {
      await audit(trx, null, {
        action: 'approval.expire',
        targetUserId: row.customer_id,
        targetType: 'approval',
        targetId: row.id,
        before: { status: 'pending' },
        after: { status: 'expired' },
      });
    }
    return expired.length;
  });
}

async function findOrThrow(ctx: AppContext, id: string): Promise<repository.ApprovalListRow> {
  const row = await repository.findApproval(ctx.db, id);
  if (!row) throw notFound(APPROVAL_NOT_FOUND);
  return row;
}

/** Who may decide this request at all: approvalRefusal, the rule the queue's buttons follow too. */
function assertMayDecide(ctx: ActorContext, row: repository.ApprovalRow): void {
  const { user } = ctx.actor;
  const refusal = approvalRefusal(
    { kind: row.kind as ApprovalKind, requestedById: row.requested_by, subjectId: row.subject_user_id, customerId: row.customer_id },
    { id: user.id, isAdmin: user.is_admin, staffRole: user.staff_role },
  );
  if (refusal) throw forbidden(APPROVAL_REFUSAL_MESSAGES[refusal]);
}

function assertPending(ctx: AppContext, row: repository.ApprovalRow): void {
  if (row.status !== 'pending') throw conflict(alreadyDecided(row.status));
  if (row.expires_at.getTime() <= ctx.clock.now().getTime()) throw conflict(alreadyDecided('expired'));
}

/** Raised by the gate inside the change's transaction: someone decided first (not a failure of the change). */
class DecidedMeanwhile extends AppError {}

/** The approval's own idempotency record: the change is stored once under it, whoever approves. */
const ticketOf = (row: repository.ApprovalRow): IdempotencyTicket => ({
  userId: row.requested_by,
  key: `approval:${row.id}`,
  requestHash: sha256(`approval:${row.id}`),
});

export type ApprovalDecision = ApprovalDto & { outcome: { status: number; data: unknown; message?: string } | null };

/**
 * Carries out exactly what was asked, now, as the staff member who asked it (their entry, their
 * audit record; the approval names the approver), in the transaction that marks the request
 * approved. A change that can no longer be made marks the request failed with the reason, and the
 * approver is answered as the call would have been refused (a moved balance: 409).
 */
export async function approve(ctx: ActorContext, id: string): Promise<Outcome<ApprovalDecision>> {
  const row = await findOrThrow(ctx, id);
  assertMayDecide(ctx, row);
  assertPending(ctx, row);
  const requester = await ctx.db.selectFrom('users').selectAll().where('id', '=', row.requested_by).executeTakeFirstOrThrow();
  const gate: ApprovalGate = {
    id: row.id,
    requestedBy: row.requested_by,
    claim: async (trx) => {
      const locked = await repository.lockApproval(trx, id);
      if (!locked || locked.status !== 'pending') throw new DecidedMeanwhile('conflict', alreadyDecided(locked?.status ?? 'decided'));
      if (locked.expires_at.getTime() <= ctx.clock.now().getTime()) throw new DecidedMeanwhile('conflict', alreadyDecided('expired'));
      await repository.decide(trx, id, { status: 'approved', decidedBy: ctx.actor.user.id, decidedAt: ctx.clock.now() });
      await audit(trx, ctx.actor, {
        action: 'approval.approve',
        targetUserId: row.customer_id ?? row.subject_user_id,
        targetType: 'approval',
        targetId: id,
        before: { status: 'pending', kind: row.kind, requestedBy: row.requested_by },
        after: { status: 'approved', summary: row.summary },
      });
    },
  };
  const asRequester: ActorContext = { ...ctx, actor: { ...ctx.actor, user: requester } };
  let outcome: Outcome<unknown>;
  try {
    outcome = await executorFor(row.kind as ApprovalKind)(asRequester, row, gate, ticketOf(row));
  } catch (error) {
    if (error instanceof DecidedMeanwhile || !(error instanceof AppError) || error.code === 'unavailable') throw error;
    // Answered as the call itself would have been refused (Insufficient funds, a balance that moved...).
    await fail(ctx, row, error.message);
    throw error;
  }
  const stored = storedOutcome(outcome);
  const result = { status: stored.status, ...stored.body };
  await repository.storeOutcome(ctx.db, id, result);
  // Told that it was approved and what that did; the change's own words are in outcome.message.
  return {
    data: { ...toApprovalDto(await findOrThrow(ctx, id), ctx.clock.now()), outcome: result },
    message: approvedMessage(row.kind as ApprovalKind, row.payload),
  };
}

async function fail(ctx: ActorContext, row: repository.ApprovalRow, reason: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const decided = await repository.decide(trx, row.id, {
      status: 'failed',
      decidedBy: ctx.actor.user.id,
      decidedAt: ctx.clock.now(),
      reason: reason.slice(0, 1000),
    });
    if (!decided) return;
    await audit(trx, ctx.actor, {
      action: 'approval.fail',
      targetUserId: row.customer_id ?? row.subject_user_id,
      targetType: 'approval',
      targetId: row.id,
      before: { status: 'pending' },
      after: { status: 'failed' },
      reason,
    });
  });
}

async function decideWithout(
  ctx: ActorContext,
  id: string,
  status: 'rejected' | 'cancelled',
  reason: string | null,
  check: (row: repository.ApprovalRow) => void,
): Promise<Outcome<ApprovalDecision>> {
  await inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockApproval(trx, id);
    if (!row) throw notFound(APPROVAL_NOT_FOUND);
    check(row);
    assertPending(ctx, row);
    await repository.decide(trx, id, { status, decidedBy: ctx.actor.user.id, decidedAt: ctx.clock.now(), reason });
    await audit(trx, ctx.actor, {
      action: status === 'rejected' ? 'approval.reject' : 'approval.cancel',
      targetUserId: row.customer_id ?? row.subject_user_id,
      targetType: 'approval',
      targetId: id,
      before: { status: 'pending', kind: row.kind },
      after: { status },
      reason,
    });
  });
  const message = status === 'rejected' ? 'Request rejected' : 'Request cancelled';
  return { data: { ...toApprovalDto(await findOrThrow(ctx, id), ctx.clock.now()), outcome: null }, message };
}

/** A second staff member refuses the request, saying why; nothing else changes. */
export const reject = (ctx: ActorContext, id: string, reason: string) => decideWithout(ctx, id, 'rejected', reason, (row) => assertMayDecide(ctx, row));

/** The staff member who asked withdraws the request. */
export const cancel = (ctx: ActorContext, id: string) =>
  decideWithout(ctx, id, 'cancelled', null, (row) => {
    if (row.requested_by !== ctx.actor.user.id) throw forbidden(NOT_REQUESTER_MESSAGE);
  });

/** The approvals about one customer (the customer page's timeline). */
export async function customerApprovals(ctx: AppContext, customerId: string, limit: number): Promise<ApprovalDto[]> {
  const page = await repository.listApprovals(ctx.db, { customerId }, { page: 1, pageSize: limit });
  return page.items.map((row) => toApprovalDto(row, ctx.clock.now()));
}

export const isApprovalStatus = (value: string): value is ApprovalStatus => (APPROVAL_STATUSES as readonly string[]).includes(value);
export const isApprovalKind = (value: string): value is ApprovalKind => (APPROVAL_KINDS as readonly string[]).includes(value);
