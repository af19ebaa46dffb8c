import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { SEARCH_LENGTH_MAX, USER_SORT_FIELDS, ZAdminUserListQuery, type UserSortField } from '../../../shared/contracts/admin';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form';
import { Pager } from '../../components/ui/pager';
import { adminUsersQuery, type UserListParams } from '../../features/admin/api';
import { UsersTable } from '../../features/admin/components/users-table';
import { errorMessage } from '../../lib/api';
import { contractResolver } from '../../lib/form';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/users';
import { staffPageTitle } from '../../lib/title';

export function meta() {
  return [{ title: staffPageTitle('Users') }];
}

const defaultOrder = (sort: UserSortField) => (sort === 'createdAt' ? 'desc' : 'asc');

function readParams(search: URLSearchParams): UserListParams {
  const sort = choiceParam(search, 'sort', USER_SORT_FIELDS, 'createdAt');
  const order = choiceParam(search, 'order', ['asc', 'desc'] as const, defaultOrder(sort));
  return { page: pageParam(search), search: (search.get('search') ?? '').slice(0, SEARCH_LENGTH_MAX), sort, order };
}

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return prefetch(adminUsersQuery(readParams(searchOf(request))));
}

const ZSearch = ZAdminUserListQuery.pick({ search: true });

export default function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const { data, isPending, error, isFetching } = useQuery(adminUsersQuery(params));
  const form = useForm<{ search: string }>({ resolver: contractResolver(ZSearch), defaultValues: { search: params.search } });
  useEffect(() => form.reset({ search: params.search }), [form, params.search]);

  function update(next: Partial<UserListParams>) {
    const merged = { ...params, ...next };
    setSearchParams(listSearch(merged, { search: '', sort: 'createdAt', order: defaultOrder(merged.sort), page: 1 }));
  }

  function sortBy(field: UserSortField) {
    const order = params.sort === field ? (params.order === 'asc' ? 'desc' : 'asc') : 'asc';
    update({ sort: field, order, page: 1 });
  }

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Search by name, email or account number.">Users</PageTitle>
      <form
        role="search"
        onSubmit={form.handleSubmit((values) => update({ search: values.search.trim(), page: 1 }))}
        className="flex flex-wrap items-end gap-3"
      >
        <div className="min-w-64 flex-1">
          <TextField
            label="Search users"
            type="search"
            maxLength={SEARCH_LENGTH_MAX}
            placeholder="Name, email or account number"
            error={form.formState.errors.search?.message}
            {...form.register('search')}
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
            // The search echoed back may be one long word: it breaks rather than widen a phone's page.
            <p className="text-slate-700 [overflow-wrap:anywhere]" role="status">
              {data.total > 0 ? 'No users on this page: it is past the last one.' : params.search ? `No users match "${params.search}".` : 'No users yet.'}
            </p>
          ) : (
            <div aria-busy={isFetching}>
              <UsersTable data={data} sort={params.sort} order={params.order} onSort={sortBy} />
            </div>
          )}
          <Pager
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            estimated={data.totalEstimated === true}
            label="Users"
            onPage={(page) => update({ page })}
          />
        </>
      ) : null}
    </div>
  );
}
