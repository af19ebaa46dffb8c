import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Link } from 'react-router';
import type { AdminUserList, UserSortField } from '../../../../shared/contracts/admin';
import { paths } from '../../../paths';

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

/** The spec's users table: index, first name, last name, email, View; sortable headers. */
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
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Users, page {data.page}</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold text-slate-900">
              #
            </th>
            {COLUMNS.map((column) => (
              <th
                key={column.field}
                scope="col"
                className="px-4 py-3"
                aria-sort={sort === column.field ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                <SortButton field={column.field} label={column.label} sort={sort} order={order} onSort={onSort} />
              </th>
            ))}
            <th scope="col" className="px-4 py-3 font-semibold text-slate-900">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((user, index) => (
            <tr key={user._id} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-3 text-slate-700">{first + index + 1}</td>
              <td className="px-4 py-3 text-slate-900">{user.firstName}</td>
              <td className="px-4 py-3 text-slate-900">{user.lastName}</td>
              <td className="px-4 py-3 text-slate-900">
                {user.email}
                {user.isAdmin ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800">Admin</span> : null}
                {user.isBlocked ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">Blocked</span> : null}
                {user.isAccountDisabled && !user.closedAt ? (
                  <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">Disabled</span>
                ) : null}
                {user.closedAt ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800">Closed</span> : null}
              </td>
              <td className="px-4 py-3 text-right">
                <Link to={paths.adminUser(user._id)} className="font-semibold text-brand-800 hover:underline">
                  View
                  <span className="sr-only">
                    {' '}
                    {user.firstName} {user.lastName}
                  </span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
