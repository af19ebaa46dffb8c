import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { ZAuditQuery } from '../../../shared/contracts/admin';
import { EMAIL_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/form';
import { Pager } from '../../components/ui/pager';
import { auditFiltersQuery, auditQuery, type AuditParams } from '../../features/admin/api';
import { AuditTable } from '../../features/admin/components/audit-table';
import { errorMessage } from '../../lib/api';
import { contractResolver, inFormWords, type FieldLabels } from '../../lib/form';
import { listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/audit';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Audit log') }];
}

type AuditFilterValues = Omit<AuditParams, 'page'>;

/**
 * The filters' labels for the API's parameter names: a refusal (of the form, or of an address edited
 * by hand, "actorId is not a valid id") names the fields as staff see them.
 */
const LABELS: FieldLabels = { actorId: 'Staff member', customer: 'Customer', action: 'Action' };
const inFilterWords = inFormWords(LABELS);
const NO_FILTER: AuditFilterValues = { actorId: '', customer: '', action: '' };

function readParams(search: URLSearchParams): AuditParams {
  return {
    page: pageParam(search),
    actorId: search.get('actorId') ?? '',
    customer: search.get('customer') ?? '',
    action: search.get('action') ?? '',
  };
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminAudit');
  return prefetch(auditQuery(readParams(searchOf(request))), auditFiltersQuery());
}

export default function AdminAuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const filters = useQuery(auditFiltersQuery());
  const { data, isPending, error } = useQuery(auditQuery(params));
  const form = useForm<AuditFilterValues>({
    resolver: contractResolver(ZAuditQuery, {
      toInput: (values) => Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '')),
      labels: LABELS,
    }),
    defaultValues: { actorId: params.actorId, customer: params.customer, action: params.action },
  });
  const { errors } = form.formState;
  const { actorId, customer, action } = params;
  useEffect(() => form.reset({ actorId, customer, action }), [form, actorId, customer, action]);

  const apply = (next: AuditParams) =>
    setSearchParams(listSearch({ actorId: next.actorId, customer: next.customer.trim(), action: next.action, page: next.page }));

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Every staff action, newest first. The log cannot be changed.">Audit log</PageTitle>
      <form
        onSubmit={form.handleSubmit((values) => apply({ ...values, page: 1 }))}
        noValidate
        className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
      >
        <SelectField label="Staff member" error={errors.actorId?.message} {...form.register('actorId')}>
          <option value="">Everyone</option>
          {filters.data?.staff.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name} ({member.email})
            </option>
          ))}
        </SelectField>
        <TextField
          label="Customer"
          maxLength={EMAIL_LENGTH_MAX}
          hint="Email, account number or id"
          error={errors.customer?.message}
          {...form.register('customer')}
        />
        <SelectField label="Action" error={errors.action?.message} {...form.register('action')}>
          <option value="">All actions</option>
          {filters.data?.actions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <div className="flex gap-3">
          <Button type="submit">Filter</Button>
          <Button
            variant="secondary"
            onClick={() => {
              form.reset(NO_FILTER);
              apply({ ...NO_FILTER, page: 1 });
            }}
          >
            Reset
          </Button>
        </div>
      </form>
      {error ? <Alert tone="error">{inFilterWords(errorMessage(error))}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && !error ? (
        <>
          {data.items.length === 0 ? (
            <p role="status" className="text-slate-700">
              {actorId || customer || action ? 'No actions match these filters.' : 'No staff actions yet.'}
            </p>
          ) : (
            <AuditTable items={data.items} />
          )}
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} label="Audit log" onPage={(page) => apply({ ...params, page })} />
        </>
      ) : null}
    </div>
  );
}
