import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Link } from 'react-router';
import type { AdminUserList, UserSortField } from '../../../../shared/contracts/admin';
import { DataTable, type DataColumn } from '../../../components/ui/data-table';
import { paths } from '../../../paths';
import { EmailAddress } from '../../../components/ui/email-address';

const COLUMNS: Array<{ field: UserSortField; label: string }> = [
  { field: 'firstName', label: 'First name' },
  { field: 'lastName', label: 'Last name' },
  { field: 'email', label: 'Email' },
];

function SortButton({
  field,
  label,
  sort,
  order,
  onSort,
}: {
  field: UserSortField;
  label: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
  onSort: (field: UserSortField) => void;
}) {
  const active = sort === field;
  const Icon = !active ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <button
      type="button"
      onClick={() => onSort(field)}
      className="inline-flex items-center gap-1 font-semibold text-slate-900 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      {label}
      <Icon aria-hidden="true" className="h-4 w-4" />
      <span className="sr-only">
        {active ? `, sorted ${order === 'asc' ? 'ascending' : 'descending'}. Sort ${order === 'asc' ? 'descending' : 'ascending'}` : ', sort by this column'}
      </span>
    </button>
  );
}

/** The spec's users table: index, first name, last name, email, View; sortable headers; one card per user on a phone. */
export function UsersTable({
  data,
  sort,
  order,
  onSort,
}: {
  data: AdminUserList;
  sort: UserSortField;
  order: 'asc' | 'desc';
  onSort: (field: UserSortField) => void;
}) {
  const first = (data.page - 1) * data.pageSize;
  type User = AdminUserList['items'][number];
  const columns: Array<DataColumn<User>> = [
    { header: '#', cell: (_user, index) => <span className="text-slate-700">{first + index + 1}</span> },
    ...COLUMNS.map((column): DataColumn<User> => ({
      header: <SortButton field={column.field} label={column.label} sort={sort} order={order} onSort={onSort} />,
      label: column.label,
      sort: sort === column.field ? (order === 'asc' ? 'ascending' : 'descending') : undefined,
      // A long unbroken name wraps anywhere rather than widening the table past the page (as the staff list's).
      cell: (user) => (column.field === 'email' ? <EmailCell user={user} /> : <span className="[overflow-wrap:anywhere]">{user[column.field]}</span>),
    })),
    {
      header: 'Actions',
      headerHidden: true,
      kind: 'actions',
      cell: (user) => (
        <Link to={paths.adminUser(user._id)} className="font-semibold text-brand-800 hover:underline">
          View
          <span className="sr-only">
            {' '}
            {user.firstName} {user.lastName}
          </span>
        </Link>
      ),
    },
  ];
  return <DataTable caption={`Users, page ${data.page}`} columns={columns} rows={data.items} rowKey={(user) => user._id} sortable />;
}

function EmailCell({ user }: { user: AdminUserList['items'][number] }) {
  return (
    <>
      <EmailAddress value={user.email} />
      {user.isAdmin ? (
        <span className="ml-2 inline-block whitespace-nowrap rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800">Admin</span>
      ) : null}
      {user.isBlocked ? (
        <span className="ml-2 inline-block whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Blocked</span>
      ) : null}
      {user.isAccountDisabled && !user.closedAt ? (
        <span className="ml-2 inline-block whitespace-nowrap rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">Disabled</span>
      ) : null}
      {user.closedAt ? (
        <span className="ml-2 inline-block whitespace-nowrap rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800">Closed</span>
      ) : null}
    </>
  );
}
