import { useState } from 'react';
import { Link } from 'react-router';
import {
  APPROVAL_DECIDER_ROLES,
  APPROVAL_KIND_LABELS,
  APPROVAL_REFUSAL_MESSAGES,
  approvalRefusal,
  type ApprovalDto,
  type ApprovalStatus,
  ZApprovalRejection,
} from '../../../../shared/contracts/approvals';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../../../shared/staff-roles';
import { Button } from '../../../components/ui/button';
import { ConfirmInline } from '../../../components/ui/confirm-inline';
import { DataTable } from '../../../components/ui/data-table';
import { ReasonForm } from '../../../components/ui/reason-form';
import { useAction } from '../../../lib/action';
import { useInlineConfirmation } from '../../../lib/focus';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../paths';
import { approveApproval } from '../api/approve-approval';
import { cancelApproval } from '../api/cancel-approval';
import { rejectApproval } from '../api/reject-approval';
import { NameOrEmail } from '../../../components/ui/email-address';

const STATUS_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

const STATUS_TONES: Record<ApprovalStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-900',
  rejected: 'bg-red-100 text-red-900',
  failed: 'bg-red-100 text-red-900',
  expired: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-slate-200 text-slate-800',
};

/** Who decides a kind the signed-in role may not (the roles of APPROVAL_DECIDER_ROLES, in words). */
const DECIDED_BY = Object.fromEntries(
  Object.entries(APPROVAL_DECIDER_ROLES).map(([kind, roles]) => [kind, `${roles.map((role) => STAFF_ROLE_LABELS[role]).join(' or ')} decides this.`]),
) as Record<ApprovalDto['kind'], string>;

function StatusBadge({ status }: { status: ApprovalStatus }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}>{STATUS_LABELS[status]}</span>;
}

function Customer({ approval }: { approval: ApprovalDto }) {
  if (!approval.customer) return <span className="text-slate-700">None</span>;
  return (
    <Link to={paths.adminUser(approval.customer.id)} className="font-medium text-brand-800 hover:underline">
      <NameOrEmail name={approval.customer.name} email={approval.customer.email} />
    </Link>
  );
}

/** Who decided, when, and why (a rejection's or a failure's reason). */
function Decision({ approval }: { approval: ApprovalDto }) {
  if (approval.status === 'pending') return <span>Expires {formatDate(approval.expiresAt, 'dateTime')}</span>;
  return (
    <span>
      {approval.decidedBy ? (
        <>
          <NameOrEmail name={approval.decidedBy.name} email={approval.decidedBy.email} />,{' '}
        </>
      ) : null}
      {approval.decidedAt ? formatDate(approval.decidedAt, 'dateTime') : ''}
      {approval.reason ? <span className="block text-slate-800">Reason: {approval.reason}</span> : null}
    </span>
  );
}

/** The signed-in staff member, as the rule of who may decide reads them. */
export interface Decider {
  id: string;
  isAdmin: boolean;
  staffRole: StaffRole | null | undefined;
}

/**
 * Approve, reject (with a reason) or, for the staff member who asked, cancel. The buttons are
 * offered only when approvalRefusal, the rule the server answers 403 by, lets this staff member
 * decide: never the one who asked, never the one a staff change is about, only a role the action needs.
 */
function Actions({ approval, me }: { approval: ApprovalDto; me: Decider }) {
  const [rejecting, setRejecting] = useState(false);
  const confirmation = useInlineConfirmation<HTMLFormElement>({ open: rejecting, onCancel: () => setRejecting(false) });
  // A change that can no longer be made (a balance that moved, Insufficient funds) closes the
  // request as failed: the queue is read again either way, so the row shows what it now is, and
  // the reason is said in a toast (the row leaves the pending list with its buttons).
  const approve = useAction(() => approveApproval(approval.id), { successToast: (message) => message, errorToast: true, refresh: 'always' });
  const cancel = useAction(() => cancelApproval(approval.id), { successToast: (message) => message, errorToast: true });
  if (approval.status !== 'pending') return null;
  const refusal = approvalRefusal(
    { kind: approval.kind, requestedById: approval.requestedBy.id, subjectId: approval.subjectId, customerId: approval.customer?.id ?? null },
    me,
  );
  const what = `${APPROVAL_KIND_LABELS[approval.kind].toLowerCase()}: ${approval.summary}`;
  if (rejecting) {
    return (
      <ReasonForm
        label={`Reason for rejecting the ${what}`}
        hint="Kept with the request and in the audit log."
        schema={ZApprovalRejection}
        send={(reason) => rejectApproval(approval.id, reason)}
        onCancel={confirmation.cancel}
        ref={confirmation.panel}
      />
    );
  }
  return (
    <div className="space-y-2 text-left">
      {refusal === 'requester' ? (
        <>
          <p className="text-sm text-slate-700">You asked for this: a second staff member approves it.</p>
          <Button variant="secondary" disabled={cancel.busy} onClick={() => void cancel.run()}>
            Cancel request<span className="sr-only"> for the {what}</span>
          </Button>
        </>
      ) : refusal === 'subject' ? (
        <p className="text-sm text-slate-700">{APPROVAL_REFUSAL_MESSAGES.subject}</p>
      ) : refusal === 'role' ? (
        <p className="text-sm text-slate-700">{DECIDED_BY[approval.kind]}</p>
      ) : (
        <ConfirmInline question={`Approve the ${what}? It takes effect now.`} confirmLabel="Approve" busyLabel="Approving..." onConfirm={() => approve.run()}>
          {(opener) => (
            <div className="flex flex-wrap gap-2">
              <Button {...opener} disabled={approve.busy}>
                Approve<span className="sr-only"> the {what}</span>
              </Button>
              <Button ref={confirmation.opener} variant="danger" onClick={() => setRejecting(true)}>
                Reject<span className="sr-only"> the {what}</span>
              </Button>
            </div>
          )}
        </ConfirmInline>
      )}
    </div>
  );
}

/** The queue, newest first: one DataTable (a table from 768 px, one card per request below, its buttons in view). */
export function ApprovalQueue({ approvals, me }: { approvals: ApprovalDto[]; me: Decider }) {
  return (
    <DataTable
      caption="Requests, newest first"
      rows={approvals}
      rowKey={(approval) => approval.id}
      rowProps={() => ({ 'data-testid': 'approval-row' })}
      columns={[
        {
          header: 'Request',
          kind: 'title',
          cell: (approval) => (
            <>
              <span className="block font-semibold text-slate-900">{APPROVAL_KIND_LABELS[approval.kind]}</span>
              <span className="block text-sm font-normal text-slate-900">{approval.summary}</span>
            </>
          ),
        },
        { header: 'Customer', cell: (approval) => <Customer approval={approval} /> },
        {
          header: 'Asked by',
          cell: (approval) => (
            <>
              <NameOrEmail name={approval.requestedBy.name} email={approval.requestedBy.email} />
              <span className="block text-xs text-slate-700">{formatDate(approval.requestedAt, 'dateTime')}</span>
            </>
          ),
        },
        {
          header: 'Status',
          cell: (approval) => (
            <>
              <StatusBadge status={approval.status} />
              <span className="mt-1 block text-xs text-slate-700">
                <Decision approval={approval} />
              </span>
            </>
          ),
        },
        { header: 'Action', kind: 'actions', className: 'md:w-72', cell: (approval) => <Actions approval={approval} me={me} /> },
      ]}
    />
  );
}
