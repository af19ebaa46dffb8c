import { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../limits';
import { ROLES, type StaffRole } from '../staff-roles';
import { controlCharactersMessage, envelope, paginated, SINGLE_LINE_TEXT, ZPage, ZTimestamp } from './common';

// Four eyes on money and on drastic actions (issue 15, docs/decisions/023-four-eyes.md).

export const APPROVAL_KINDS = [
  'staff_entry',
  'balance_correction',
  'reversal',
  'customer_unblock',
  'customer_enable',
  'customer_close',
  'loan_approval',
  // Staff management (h-roles builds the calls; these kinds wait for them: approvals/executors.ts).
  'staff_invitation',
  'staff_role_change',
] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/**
 * The one rule of who may decide a request: the role the action itself needs (ADR 022, 023). The
 * server's canDecide and the queue's buttons both read it.
 */
export const APPROVAL_DECIDER_ROLES: Record<ApprovalKind, readonly StaffRole[]> = {
  staff_entry: ROLES.finance,
  balance_correction: ROLES.finance,
  reversal: ROLES.finance,
  loan_approval: ROLES.finance,
  customer_unblock: ROLES.compliance,
  customer_enable: ROLES.compliance,
  customer_close: ROLES.compliance,
  staff_invitation: ROLES.admin,
  staff_role_change: ROLES.admin,
};

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'failed', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_KIND_LABELS: Record<ApprovalKind, string> = {
  staff_entry: 'Credit or debit',
  balance_correction: 'Balance correction',
  reversal: 'Reversal',
  customer_unblock: 'Lift a block',
  customer_enable: 'Re-enable access',
  customer_close: 'Close a customer',
  loan_approval: 'Loan approval',
  staff_invitation: 'Staff invitation',
  staff_role_change: 'Staff role change',
};

/** Requests not decided within this time expire (issue 15). */
export const APPROVAL_TTL_DAYS = 7;

/** What a form shows after the spec's message when its change waits for a second staff member. */
export const AWAITING_APPROVAL_SUFFIX = ' - awaiting approval by a second staff member';
export const awaitingApproval = (message: string) => `${message}${AWAITING_APPROVAL_SUFFIX}`;

/** The answer of a staff call that became a pending approval (202). */
export const ZApprovalPending = z.object({ approvalId: z.uuid(), status: z.literal('pending') });
export type ApprovalPending = z.infer<typeof ZApprovalPending>;
export const ZApprovalPendingAnswer = envelope(ZApprovalPending);

export const ZApprovalListQuery = ZPage.extend({
  status: z.enum(APPROVAL_STATUSES, { message: `status must be one of ${APPROVAL_STATUSES.join(', ')}` }).default('pending'),
});

const ZPerson = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });

export const ZApproval = z.object({
  id: z.uuid(),
  kind: z.enum(APPROVAL_KINDS),
  requestedBy: ZPerson,
  requestedAt: ZTimestamp,
  customer: ZPerson.nullable(),
  summary: z.string(),
  payload: z.record(z.string(), z.unknown()),
  status: z.enum(APPROVAL_STATUSES),
  decidedBy: ZPerson.nullable(),
  decidedAt: ZTimestamp.nullable(),
  reason: z.string().nullable(),
  expiresAt: ZTimestamp,
});
export type ApprovalDto = z.infer<typeof ZApproval>;

export const ZApprovalPageAnswer = envelope(paginated(ZApproval));

/** An approval carried out: the approval and the answer the action gave (what the call would have answered at once). */
export const ZApprovalDecisionAnswer = envelope(
  ZApproval.extend({ outcome: z.object({ status: z.number().int(), data: z.unknown(), message: z.string().optional() }).nullable() }),
);

export const ZApprovalCountAnswer = envelope(z.object({ pending: z.number().int() }));

export const ZApprovalRejection = z.object({
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(3, 'A reason is required (at least 3 characters)')
    .max(TEXT_LENGTH_MAX, `Reason must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Reason')),
});
export type ApprovalRejection = z.input<typeof ZApprovalRejection>;
