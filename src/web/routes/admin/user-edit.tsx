import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { adminUserQuery } from '../../features/admin/api';
import { UserEditForm } from '../../features/admin/components/user-edit-form';
import { errorMessage } from '../../lib/api';

export function meta() {
  return [{ title: 'Edit user' }];
}

export default function AdminUserEditPage() {
  const { id = '' } = useParams();
  const { data: user, isPending, error } = useQuery(adminUserQuery(id));
  const name = user ? `${user.firstName} ${user.lastName}` : 'User';
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-700">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/admin/dashboard" className="hover:underline">Home</Link> /
          </li>
          <li>
            <Link to="/admin/users" className="hover:underline">Users</Link> /
          </li>
          <li>
            <Link to={`/admin/users/${id}`} className="hover:underline">{name}</Link> /
          </li>
          <li aria-current="page">Edit User</li>
        </ol>
      </nav>
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
