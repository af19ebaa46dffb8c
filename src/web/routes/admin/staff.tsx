import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { staffListQuery } from '../../features/staff/api/list-staff';
import { InviteStaffForm } from '../../features/staff/components/invite-staff-form';
import { StaffTable } from '../../features/staff/components/staff-table';
import { errorMessage } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { prefetch } from '../../lib/query';
import { requireStaffPage } from '../../lib/staff-access';
import { staffPageTitle } from '../../lib/title';

export function meta() {
  return [{ title: staffPageTitle('Staff') }];
}

/** Admins only (ADR 022): another role is sent to the dashboard rather than shown a 403. */
export async function clientLoader() {
  await requireStaffPage('adminStaff');
  return prefetch(staffListQuery());
}

export default function AdminStaffPage() {
  const user = useCurrentUser();
  const { data, error, isPending } = useQuery(staffListQuery());
  const active = data?.items.filter((member) => member.staffStatus === 'active').length ?? 0;
  return (
    <div className="space-y-6">
      <PageTitle subtitle={data ? `${data.items.length} staff member${data.items.length === 1 ? '' : 's'}, ${active} active` : undefined}>Staff</PageTitle>
      <Card title="Invite a staff member">
        <p className="mb-4 text-sm text-slate-700">
          They receive a link to choose a password, then set up a second factor at their first sign-in. The last active admin can never be suspended or demoted.
        </p>
        <InviteStaffForm />
      </Card>
      {/* Not in a Card: the list is a card of its own from 768 px (DataTable), and the width a Card's
          padding would take lets a member's actions sit on one line at 1280 px. */}
      <section aria-labelledby="staff-members-heading" className="space-y-4">
        <h2 id="staff-members-heading" className="text-lg font-semibold text-slate-900">
          Staff members
        </h2>
        {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
        {isPending ? (
          <p role="status" className="text-slate-700">
            Loading staff...
          </p>
        ) : null}
        {data ? <StaffTable items={data.items} selfId={user._id} /> : null}
      </section>
    </div>
  );
}
