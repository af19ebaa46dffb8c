import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../../../shared/contracts/approvals';
import { Alert } from '../../components/ui/alert';
import { PageTitle } from '../../components/ui/card';
import { staffPageTitle } from '../../lib/title';
import { Pager } from '../../components/ui/pager';
import { StatusTabs } from '../../components/ui/status-tabs';
import { approvalsQuery } from '../../features/approvals/api/list-approvals';
import { ApprovalQueue } from '../../features/approvals/components/approval-queue';
import { errorMessage } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/approvals';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Approvals') }];
}

const STATUSES: Array<{ value: ApprovalStatus; label: string }> = [
  { value: 'pending', label: 'Waiting for approval' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'failed', label: 'Failed' },
  { value: 'expired', label: 'Expired' },
  { value: 'cancelled', label: 'Cancelled' },
];

const readParams = (search: URLSearchParams) => ({ status: choiceParam(search, 'status', APPROVAL_STATUSES, 'pending'), page: pageParam(search) });

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminApprovals');
  const { status, page } = readParams(searchOf(request));
  return prefetch(approvalsQuery(status, page));
}

/** The four-eyes queue (issue 15, ADR 023): staff money and drastic actions wait here for a second staff member. */
export default function AdminApprovalsPage() {
  const user = useCurrentUser();
  const [search, setSearch] = useSearchParams();
  const { status, page } = readParams(search);
  const show = (next: { status: ApprovalStatus; page: number }) => setSearch(listSearch(next, { status: 'pending', page: 1 }));
  const { data, isPending, error } = useQuery(approvalsQuery(status, page));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Credits, debits, corrections, reversals, unblocks, re-enables, closures, large loans, staff invitations and role changes take effect once a second staff member approves them. Requests expire after 7 days.">
        Approvals
      </PageTitle>
      <StatusTabs label="Request status" options={STATUSES} value={status} onChange={(value) => show({ status: value, page: 1 })} />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No requests here.</p> : null}
      {data && data.items.length > 0 ? <ApprovalQueue approvals={data.items} me={{ id: user._id, isAdmin: user.isAdmin, staffRole: user.staffRole }} /> : null}
      {data && pages > 1 ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Requests" onPage={(next) => show({ status, page: next })} />
      ) : null}
    </div>
  );
}
