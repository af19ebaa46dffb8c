import type { z } from 'zod';
import type { ApprovalKind } from '../../shared/contracts/approvals';
import { STAFF_NOT_FOUND_MESSAGE, ZStaffInvite, ZStaffRoleChange } from '../../shared/contracts/staff';
import { ZAdminAccountUpdate, ZAdminTransactionRequest } from '../../shared/contracts/transactions';
import { ZLoanApproveRequest } from '../../shared/contracts/loans';
import { dollarsToCents } from '../../shared/money';
import type { ActorContext } from '../context';
import { closeOrDeleteCustomer, liftRestrictions } from '../customers/service';
import type { IdempotencyTicket } from '../ledger/idempotency';
import { AppError } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { approveLoan } from '../loans/service';
import { changeStaffRole, inviteStaff } from '../staff/service';
import { correctAccount, postStaffEntry, reverseEntry } from '../transactions/service';
import type { ApprovalRow } from './repository';
import type { ApprovalGate } from './request';

/**
 * How each kind of request is carried out once approved: the domain service that would have made
 * the change at once, given the stored payload and the gate (which claims the approval inside the
 * change's transaction). The context's actor is the staff member who asked.
 */
export type Executor = (ctx: ActorContext, approval: ApprovalRow, gate: ApprovalGate, ticket: IdempotencyTicket) => Promise<Outcome<unknown>>;

const NO_LONGER_POSSIBLE = 'The customer this request is about no longer exists.';

function parsed<T extends z.ZodType>(schema: T, payload: unknown): z.output<T> {
  const result = schema.safeParse(payload);
  if (!result.success) throw new AppError('validation', result.error.issues[0]?.message ?? 'The request no longer holds');
  return result.data;
}

function customerOf(approval: ApprovalRow): string {
  if (!approval.customer_id) throw new AppError('not_found', NO_LONGER_POSSIBLE);
  return approval.customer_id;
}

const payloadOf = (approval: ApprovalRow) => (approval.payload ?? {}) as Record<string, unknown>;
const cents = (value: unknown) => dollarsToCents(value) ?? -1;

const EXECUTORS: Partial<Record<ApprovalKind, Executor>> = {
  staff_entry: (ctx, approval, gate, ticket) => postStaffEntry(ctx, customerOf(approval), parsed(ZAdminTransactionRequest, approval.payload), ticket, gate),
  balance_correction: (ctx, approval, gate, ticket) => {
    const before = (payloadOf(approval).before ?? {}) as Record<string, unknown>;
    const expected = { savings: cents(before.savings), checking: cents(before.checking) };
    return correctAccount(ctx, customerOf(approval), parsed(ZAdminAccountUpdate, approval.payload), ticket, { gate, expected });
  },
  reversal: (ctx, approval, gate, ticket) => {
    const payload = payloadOf(approval);
    return reverseEntry(ctx, String(payload.entryId), String(payload.reason), ticket, gate);
  },
  customer_unblock: (ctx, approval, gate) => liftRestrictions(ctx, customerOf(approval), liftingOf(approval), gate),
  customer_enable: (ctx, approval, gate) => liftRestrictions(ctx, customerOf(approval), liftingOf(approval), gate),
  customer_close: (ctx, approval, gate) => closeOrDeleteCustomer(ctx, customerOf(approval), gate),
  loan_approval: (ctx, approval, gate, ticket) => {
    // The terms the second staff member was shown: what is paid out, or refused if the application changed since.
    const payload = payloadOf(approval);
    const terms = parsed(ZLoanApproveRequest, { loanAmount: payload.amount, loanType: payload.loanType, loanDuration: payload.durationMonths });
    return approveLoan(ctx, String(payload.loanId), terms, ticket, gate);
  },
  staff_invitation: (ctx, approval, gate) => inviteStaff(ctx, parsed(ZStaffInvite, approval.payload), gate),
  staff_role_change: (ctx, approval, gate) => {
    if (!approval.subject_user_id) throw new AppError('not_found', STAFF_NOT_FOUND_MESSAGE);
    return changeStaffRole(ctx, approval.subject_user_id, parsed(ZStaffRoleChange, approval.payload).staffRole, gate);
  },
};

function liftingOf(approval: ApprovalRow): { isBlocked?: false; isAccountDisabled?: false } {
  const payload = payloadOf(approval);
  return { ...(payload.isBlocked === false ? { isBlocked: false } : {}), ...(payload.isAccountDisabled === false ? { isAccountDisabled: false } : {}) };
}

export function executorFor(kind: ApprovalKind): Executor {
  return (
    EXECUTORS[kind] ??
    (() => {
      throw new AppError('conflict', 'This kind of change cannot be carried out by this version of the bank.');
    })
  );
}
