import { useState } from 'react';
import { Link } from 'react-router';
import {
  APPROVAL_DECIDER_ROLES,
  APPROVAL_KIND_LABELS,
  type ApprovalDto,
  type ApprovalStatus,
  ZApprovalRejection,
} from '../../../../shared/contracts/approvals';
import { STAFF_ROLE_LABELS } from '../../../../shared/staff-roles';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ReasonForm } from '../../../components/ui/reason-form';
import { useAction } from '../../../lib/action';
import { formatDate } from '../../../lib/format';
import { useStaffMay } from '../../../lib/staff-access';
import { paths } from '../../../paths';
import { approveApproval } from '../api/approve-approval';
import { cancelApproval } from '../api/cancel-approval';
import { rejectApproval } from '../api/reject-approval';

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
      {approval.customer.name || approval.customer.email}
    </Link>
  );
}

/** Who decided, when, and why (a rejection's or a failure's reason). */
function Decision({ approval }: { approval: ApprovalDto }) {
  if (approval.status === 'pending') return <span>Expires {formatDate(approval.expiresAt, 'dateTime')}</span>;
  return (
    <span>
      {approval.decidedBy ? `${approval.decidedBy.name || approval.decidedBy.email}, ` : ''}
      {approval.decidedAt ? formatDate(approval.decidedAt, 'dateTime') : ''}
      {approval.reason ? <span className="block text-slate-800">Reason: {approval.reason}</span> : null}
    </span>
  );
}

/**
 * Approve, reject (with a reason) or, for the staff member who asked, cancel. The server refuses a
 * requester approving their own change, and a role the action does not need (403): the buttons
 * are offered only to a staff member whose role may decide this kind (APPROVAL_DECIDER_ROLES).
 */
function Actions({ approval, myId }: { approval: ApprovalDto; myId: string }) {
  const may = useStaffMay();
  const [rejecting, setRejecting] = useState(false);
  const approve = useAction(() => approveApproval(approval.id), { successToast: (message) => message });
  const cancel = useAction(() => cancelApproval(approval.id), { successToast: (message) => message, errorToast: true });
  if (approval.status !== 'pending') return null;
  const mine = approval.requestedBy.id === myId;
  const what = `${APPROVAL_KIND_LABELS[approval.kind].toLowerCase()}: ${approval.summary}`;
  if (rejecting) {
    return (
      <ReasonForm
        label={`Reason for rejecting the ${what}`}
        hint="Kept with the request and in the audit log."
        schema={ZApprovalRejection}
        send={(reason) => rejectApproval(approval.id, reason)}
        onCancel={() => setRejecting(false)}
      />
    );
  }
  return (
    <div className="space-y-2">
      {approve.error ? <Alert tone="error">{approve.error.message}</Alert> : null}
      {mine ? (
        <>
          <p className="text-sm text-slate-700">You asked for this: a second staff member approves it.</p>
          <Button variant="secondary" disabled={cancel.busy} onClick={() => void cancel.run()}>
            Cancel request<span className="sr-only"> for the {what}</span>
          </Button>
        </>
      ) : !may(APPROVAL_DECIDER_ROLES[approval.kind]) ? (
        <p className="text-sm text-slate-700">{DECIDED_BY[approval.kind]}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            disabled={approve.busy}
            onClick={() => {
              if (window.confirm(`Approve the ${what}? It takes effect now.`)) void approve.run();
            }}
          >
            Approve<span className="sr-only"> the {what}</span>
          </Button>
          <Button variant="danger" onClick={() => setRejecting(true)}>
            Reject<span className="sr-only"> the {what}</span>
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The queue: a table from 768 px, one card per request below it (each card whole, its buttons in
 * view, no sideways scrolling). Only one of the two is displayed at a time.
 */
export function ApprovalQueue({ approvals, myId }: { approvals: ApprovalDto[]; myId: string }) {
  return (
    <>
      <ol className="space-y-3 md:hidden" aria-label="Requests, newest first">
        {approvals.map((approval) => (
          <li key={approval.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="approval-card">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="font-semibold text-slate-900">{APPROVAL_KIND_LABELS[approval.kind]}</h2>
              <StatusBadge status={approval.status} />
            </div>
            <p className="mt-1 text-slate-900">{approval.summary}</p>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">Customer</dt>
              <dd className="min-w-0 break-words">
                <Customer approval={approval} />
              </dd>
              <dt className="text-slate-700">Asked by</dt>
              <dd className="min-w-0 break-words text-slate-900">
                {approval.requestedBy.name || approval.requestedBy.email}, {formatDate(approval.requestedAt, 'dateTime')}
              </dd>
              <dt className="text-slate-700">{approval.status === 'pending' ? 'Waiting' : 'Decided'}</dt>
              <dd className="min-w-0 break-words text-slate-900">
                <Decision approval={approval} />
              </dd>
            </dl>
            <div className="mt-3">
              <Actions approval={approval} myId={myId} />
            </div>
          </li>
        ))}
      </ol>
      <div className="hidden md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Requests, newest first</caption>
          <thead className="border-b border-slate-300 text-slate-800">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Request
              </th>
              <th scope="col" className="py-2 pr-3">
                Customer
              </th>
              <th scope="col" className="py-2 pr-3">
                Asked by
              </th>
              <th scope="col" className="py-2 pr-3">
                Status
              </th>
              <th scope="col" className="py-2">
                Action
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {approvals.map((approval) => (
              <tr key={approval.id} className="align-top" data-testid="approval-row">
                <td className="py-2 pr-3">
                  <span className="block font-semibold text-slate-900">{APPROVAL_KIND_LABELS[approval.kind]}</span>
                  {approval.summary}
                </td>
                <td className="py-2 pr-3">
                  <Customer approval={approval} />
                </td>
                <td className="py-2 pr-3">
                  {approval.requestedBy.name || approval.requestedBy.email}
                  <span className="block text-xs text-slate-700">{formatDate(approval.requestedAt, 'dateTime')}</span>
                </td>
                <td className="py-2 pr-3">
                  <StatusBadge status={approval.status} />
                  <span className="mt-1 block text-xs text-slate-700">
                    <Decision approval={approval} />
                  </span>
                </td>
                <td className="w-72 py-2">
                  <Actions approval={approval} myId={myId} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
