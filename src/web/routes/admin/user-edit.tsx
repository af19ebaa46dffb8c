import { Breadcrumb } from '../../components/ui/breadcrumb';
import { paths } from '../../paths';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { adminUserQuery } from '../../features/admin/api';
import { UserEditForm } from '../../features/admin/components/user-edit-form';
import { errorMessage } from '../../lib/api';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/user-edit';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminUserEdit');
  return prefetch(adminUserQuery(params.id));
}

export function meta() {
  return [{ title: staffPageTitle('Edit user') }];
}

export default function AdminUserEditPage() {
  const { id = '' } = useParams();
  const { data: user, isPending, error } = useQuery(adminUserQuery(id));
  const name = user ? `${user.firstName} ${user.lastName}` : 'User';
  return (
    <div className="space-y-6">
      <Breadcrumb
        trail={[
          { label: 'Home', to: paths.adminDashboard },
          { label: 'Users', to: paths.adminUsers },
          { label: name, to: paths.adminUser(id) },
          { label: 'Edit User' },
        ]}
      />
      <PageTitle>Edit user</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {user ? (
        user.closedAt ? (
          <Alert tone="info">This account is closed and can no longer be changed.</Alert>
        ) : (
          <Card>
            {/* Keyed by the user so the form starts from fresh data after an update. */}
            <UserEditForm key={`${user._id}:${user.email}:${user.isBlocked}:${user.isAccountDisabled}`} user={user} />
          </Card>
        )
      ) : null}
    </div>
  );
}
