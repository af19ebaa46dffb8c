import { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../limits';
import { ROLES, roleMayUse, type StaffRole } from '../staff-roles';
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
 * The roles that may decide a request: the role the action itself needs (ADR 022, 023). Read
 * through approvalRefusal (the server's 403 and the queue's buttons).
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

/** Why a staff member may not decide a request (the server answers 403 with the message). */
export type ApprovalRefusal = 'requester' | 'subject' | 'role';

export const APPROVAL_REFUSAL_MESSAGES: Record<ApprovalRefusal, string> = {
  requester: 'You asked for this change: a second staff member must approve it.',
  subject: 'This change is about you: another staff member must approve it.',
  role: 'Your role does not allow you to approve this kind of change.',
};

/**
 * THE rule of who may approve or reject a request (ADR 023), read by the server (403) and by the
 * queue (which offers the buttons only when this answers null): never the staff member who asked,
 * never the person the change is about (the staff member of a staff change, the user of a change
 * to a user: lifting a block on oneself is not one's own to approve), and only a role the action
 * itself needs.
 */
export function approvalRefusal(
  request: { kind: ApprovalKind; requestedById: string; subjectId: string | null; customerId: string | null },
  decider: { id: string; isAdmin: boolean; staffRole: StaffRole | null | undefined },
): ApprovalRefusal | null {
  if (request.requestedById === decider.id) return 'requester';
  if (request.subjectId === decider.id || request.customerId === decider.id) return 'subject';
  if (!decider.isAdmin || !roleMayUse(decider.staffRole, APPROVAL_DECIDER_ROLES[request.kind])) return 'role';
  return null;
}

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

/**
 * What a form shows after what was asked ('Credit requested') when its change waits for a second
 * staff member: never the words of the change made ('Transaction added successfully'), as nothing is yet.
 */
export const AWAITING_APPROVAL_SUFFIX = ' - awaiting approval by a second staff member';
export const awaitingApproval = (message: string) => `${message}${AWAITING_APPROVAL_SUFFIX}`;

/**
 * What the second staff member is told once their approval has carried the change out: that it
 * was approved, and what it did. The change's own answer (the spec's 'Transaction added
 * successfully') stays in the decision's `outcome.message`.
 */
export function approvedMessage(kind: ApprovalKind, payload: unknown): string {
  const asked = (payload ?? {}) as Record<string, unknown>;
  switch (kind) {
    case 'staff_entry':
      return `Approved: the ${asked.transactionType === 'debit' ? 'debit' : 'credit'} was posted`;
    case 'balance_correction':
      return 'Approved: the balances were corrected';
    case 'reversal':
      return 'Approved: the entry was reversed';
    case 'customer_unblock':
    case 'customer_enable': {
      const done = [
        asked.isAccountDisabled === false ? 'online banking access was re-enabled' : '',
        asked.isBlocked === false ? 'the block on payments was lifted' : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `Approved: ${done || 'the customer was updated'}`;
    }
    case 'customer_close':
      return 'Approved: the customer was closed';
    case 'loan_approval':
      return 'Approved: the loan was paid out';
    case 'staff_invitation':
      return 'Approved: the invitation was sent';
    case 'staff_role_change':
      return 'Approved: the role was changed';
  }
}

/** The answer of a staff call that became a pending approval (202). */
export const ZApprovalPending = z.object({
  approvalId: z.uuid().describe('The four-eyes request now waiting for a second staff member (GET /api/admin/approvals).'),
  status: z.literal('pending'),
});
export type ApprovalPending = z.infer<typeof ZApprovalPending>;
export const ZApprovalPendingAnswer = envelope(ZApprovalPending);

export const ZApprovalListQuery = ZPage.extend({
  status: z
    .enum(APPROVAL_STATUSES, { message: `status must be one of ${APPROVAL_STATUSES.join(', ')}` })
    .default('pending')
    .describe('Only requests with this status.'),
});

const ZPerson = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });

export const ZApproval = z.object({
  id: z.uuid(),
  kind: z.enum(APPROVAL_KINDS).describe('The action waiting for a second staff member.'),
  requestedBy: ZPerson.describe('The staff member who asked (who may not decide it).'),
  requestedAt: ZTimestamp,
  customer: ZPerson.nullable().describe('The customer it is about, if any.'),
  /** The staff member a staff invitation or role change is about (who may not decide it); null otherwise. */
  subjectId: z.string().nullable().describe('The staff member a staff invitation or role change is about (who may not decide it); null otherwise.'),
  summary: z.string().describe('The action in words.'),
  payload: z.record(z.string(), z.unknown()).describe('The action as it will be carried out (amounts in dollars).'),
  status: z
    .enum(APPROVAL_STATUSES)
    .describe('pending; approved (carried out); rejected; failed (carrying it out failed); expired (after 7 days); cancelled by the requester.'),
  decidedBy: ZPerson.nullable(),
  decidedAt: ZTimestamp.nullable(),
  reason: z.string().nullable().describe("A rejection's reason; null otherwise."),
  expiresAt: ZTimestamp.describe('Not decided by then, it expires (7 days after it was asked).'),
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
    .min(1, 'A reason is required (at least 3 characters)')
    .min(3, 'Reason must be at least 3 characters')
    .max(TEXT_LENGTH_MAX, `Reason must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Reason'))
    .describe('Why it is rejected (at least 3 characters).'),
});
export type ApprovalRejection = z.input<typeof ZApprovalRejection>;
