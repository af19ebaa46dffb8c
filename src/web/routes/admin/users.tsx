import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { SEARCH_LENGTH_MAX, USER_SORT_FIELDS, type UserSortField } from '../../../shared/contracts/admin';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form';
import { adminUsersQuery } from '../../features/admin/api';
import { Pager, pageParam } from '../../components/ui/pager';
import { UsersTable } from '../../features/admin/components/users-table';
import { errorMessage } from '../../lib/api';

export function meta() {
  return [{ title: 'Users' }];
}

function readParams(params: URLSearchParams) {
  const sortParam = params.get('sort');
  const sort: UserSortField = USER_SORT_FIELDS.includes(sortParam as UserSortField) ? (sortParam as UserSortField) : 'createdAt';
  const orderParam = params.get('order');
  const order: 'asc' | 'desc' = orderParam === 'asc' || orderParam === 'desc' ? orderParam : sort === 'createdAt' ? 'desc' : 'asc';
  const page = pageParam(params);
  return { page, search: (params.get('search') ?? '').slice(0, SEARCH_LENGTH_MAX), sort, order };
}

export default function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const [text, setText] = useState(params.search);
  useEffect(() => setText(params.search), [params.search]);
  const { data, isPending, error, isFetching } = useQuery(adminUsersQuery(params));

  function update(next: Partial<typeof params>) {
    const merged = { ...params, ...next };
    const query = new URLSearchParams();
    if (merged.search) query.set('search', merged.search);
    if (merged.sort !== 'createdAt') query.set('sort', merged.sort);
    if (merged.order !== (merged.sort === 'createdAt' ? 'desc' : 'asc')) query.set('order', merged.order);
    if (merged.page > 1) query.set('page', String(merged.page));
    setSearchParams(query);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    update({ search: text.trim(), page: 1 });
  }

  function sortBy(field: UserSortField) {
    const order = params.sort === field ? (params.order === 'asc' ? 'desc' : 'asc') : 'asc';
    update({ sort: field, order, page: 1 });
  }

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Search by name, email or account number.">Users</PageTitle>
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <TextField
            label="Search users"
            type="search"
            name="search"
            value={text}
            maxLength={SEARCH_LENGTH_MAX}
            onChange={(event) => setText(event.target.value)}
            placeholder="Name, email or account number"
          />
        </div>
        <Button type="submit">Search</Button>
        {params.search ? (
          <Button variant="secondary" onClick={() => update({ search: '', page: 1 })}>
            Clear search
          </Button>
        ) : null}
      </form>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data ? (
        <>
          {data.items.length === 0 ? (
            <p className="text-slate-700" role="status">
              {params.search ? `No users match "${params.search}".` : 'No users yet.'}
            </p>
          ) : (
            <div aria-busy={isFetching}>
              <UsersTable data={data} sort={params.sort} order={params.order} onSort={sortBy} />
            </div>
          )}
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} label="Users" onPage={(page) => update({ page })} />
        </>
      ) : null}
    </div>
  );
}
