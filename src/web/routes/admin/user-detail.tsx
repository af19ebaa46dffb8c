import { Breadcrumb } from '../../components/ui/breadcrumb';
import { paths } from '../../paths';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { adminUserQuery, adminUserSessionsQuery, paymentHoldQuery } from '../../features/admin/api';
import { DeleteUser } from '../../features/admin/components/delete-user';
import { PaymentHold } from '../../features/admin/components/payment-hold';
import { AccountInfo, BasicInfo } from '../../features/admin/components/user-info';
import { UserSessions } from '../../features/admin/components/user-sessions';
import { KycReviewPanel } from '../../features/kyc/components/kyc-review-panel';
import { kycCustomerQuery } from '../../features/kyc/api';
import { customerTransactionsQuery } from '../../features/ledger/api';
import { timelineQuery } from '../../features/timeline/api/get-timeline';
import { CustomerTimeline } from '../../features/timeline/components/customer-timeline';
import { customerRecoveryQuery } from '../../features/recovery/api/customer-recovery';
import { CustomerRecovery } from '../../features/recovery/components/customer-recovery';
import { NoteForm } from '../../features/timeline/components/note-form';
import { TransactionList } from '../../features/ledger/components/transaction-list';
import { errorMessage } from '../../lib/api';
import { prefetch, queryClient } from '../../lib/query';
import type { Route } from './+types/user-detail';
import { staffPageTitle } from '../../lib/title';
import { ROLES, useMayChangeUser, useMayOpen, useStaffMay } from '../../lib/staff-access';

const RECENT = { pageSize: 5 };

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  await prefetch(adminUserQuery(params.id));
  // Staff members have no accounts and no identity documents.
  const user = queryClient.getQueryData(adminUserQuery(params.id).queryKey);
  if (user && !user.isAdmin) {
    await prefetch(kycCustomerQuery(params.id), customerTransactionsQuery(params.id, RECENT));
    await queryClient.prefetchInfiniteQuery(timelineQuery(params.id));
  }
  if (user && !user.isAdmin && !user.closedAt) await prefetch(paymentHoldQuery(params.id), customerRecoveryQuery(params.id));
  if (user && !user.closedAt) await prefetch(adminUserSessionsQuery(params.id));
  return null;
}

export function meta() {
  return [{ title: staffPageTitle('User') }];
}

function RecentActivity({ userId }: { userId: string }) {
  const { data, isPending, error } = useQuery(customerTransactionsQuery(userId, RECENT));
  if (isPending) return <p role="status">Loading activity...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  return (
    <div className="space-y-3">
      <TransactionList items={data.items} emptyText="No transactions yet." />
      {data.total > data.items.length ? (
        <p className="text-sm text-slate-700">
          Showing the newest {data.items.length} of {data.total}.
        </p>
      ) : null}
    </div>
  );
}

export default function AdminUserDetailPage() {
  const may = useStaffMay();
  const mayOpen = useMayOpen();
  const mayChange = useMayChangeUser();
  const { id = '' } = useParams();
  const { data: user, isPending, error } = useQuery(adminUserQuery(id));
  const name = user ? `${user.firstName} ${user.lastName}` : 'User';
  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ label: 'Home', to: paths.adminDashboard }, { label: 'Users', to: paths.adminUsers }, { label: name }]} />
      <PageTitle subtitle={user?.closedAt ? 'This account is closed.' : undefined}>{name}</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {user ? (
        <>
          {!user.closedAt ? (
            <div className="flex flex-wrap gap-3">
              {mayOpen('adminUserEdit') && mayChange(user) ? <ButtonLink to={paths.adminUserEdit(user._id)}>Edit user</ButtonLink> : null}
              {!user.isAdmin ? (
                <>
                  {mayOpen('adminUserAccount') ? (
                    <ButtonLink variant="secondary" to={paths.adminUserAccount(user._id)}>
                      Edit account info
                    </ButtonLink>
                  ) : null}
                  <ButtonLink variant="secondary" to={paths.adminUserTransactions(user._id)}>
                    Transactions
                  </ButtonLink>
                </>
              ) : null}
              {!user.isAdmin && mayOpen('adminReports') ? (
                <ButtonLink variant="ghost" to={`${paths.adminReports}?owner=${encodeURIComponent(user._id)}`}>
                  Balance at a date
                </ButtonLink>
              ) : null}
              {mayOpen('adminAudit') ? (
                <ButtonLink variant="ghost" to={`${paths.adminAudit}?customer=${encodeURIComponent(user._id)}`}>
                  Audit log
                </ButtonLink>
              ) : null}
            </div>
          ) : (
            <ButtonLink variant="secondary" to={paths.adminUserTransactions(user._id)}>
              Transactions
            </ButtonLink>
          )}
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Basic info">
              <BasicInfo user={user} />
            </Card>
            <Card title="Account info">
              <AccountInfo user={user} />
            </Card>
          </div>
          {!user.isAdmin ? (
            <Card title="Verification documents">
              <KycReviewPanel userId={user._id} />
            </Card>
          ) : null}
          {!user.isAdmin ? (
            <Card
              title="Recent activity"
              actions={
                <Link to={paths.adminUserTransactions(user._id)} className="text-sm font-semibold text-brand-800 hover:underline">
                  All transactions
                </Link>
              }
            >
              <RecentActivity userId={user._id} />
            </Card>
          ) : null}
          {!user.isAdmin && !user.closedAt ? (
            <Card title="Outgoing payments">
              <PaymentHold userId={user._id} />
            </Card>
          ) : null}
          {!user.isAdmin ? (
            <Card title="Timeline">
              <div className="space-y-6">
                {!user.closedAt ? <NoteForm userId={user._id} /> : null}
                <CustomerTimeline userId={user._id} />
              </div>
            </Card>
          ) : null}
          {!user.closedAt ? (
            <Card title="Sessions">
              <UserSessions userId={user._id} mayEnd={may(ROLES.customerCare) && mayChange(user)} />
            </Card>
          ) : null}
          {!user.isAdmin && !user.closedAt ? (
            <Card title="Account recovery">
              <CustomerRecovery userId={user._id} />
            </Card>
          ) : null}
          {may(ROLES.compliance) ? <DeleteUser user={user} /> : null}
        </>
      ) : null}
    </div>
  );
}
