import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/form';
import { auditFiltersQuery, auditQuery, type AuditParams } from '../../features/admin/api';
import { AuditTable } from '../../features/admin/components/audit-table';
import { Pager, pageParam } from '../../components/ui/pager';
import { errorMessage } from '../../lib/api';

export function meta() {
  return [{ title: 'Audit log' }];
}

function readParams(params: URLSearchParams): AuditParams {
  return {
    page: pageParam(params),
    actorId: params.get('actorId') ?? '',
    customer: params.get('customer') ?? '',
    action: params.get('action') ?? '',
  };
}

export default function AdminAuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const [draft, setDraft] = useState(params);
  useEffect(() => setDraft(params), [params.actorId, params.customer, params.action]); // eslint-disable-line react-hooks/exhaustive-deps
  const filters = useQuery(auditFiltersQuery);
  const { data, isPending, error } = useQuery(auditQuery(params));

  function apply(next: AuditParams) {
    const query = new URLSearchParams();
    if (next.actorId) query.set('actorId', next.actorId);
    if (next.customer.trim()) query.set('customer', next.customer.trim());
    if (next.action) query.set('action', next.action);
    if (next.page > 1) query.set('page', String(next.page));
    setSearchParams(query);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    apply({ ...draft, page: 1 });
  }

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Every staff action, newest first. The log cannot be changed.">Audit log</PageTitle>
      <form onSubmit={submit} className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
        <SelectField label="Staff member" name="actorId" value={draft.actorId} onChange={(event) => setDraft({ ...draft, actorId: event.target.value })}>
          <option value="">Everyone</option>
          {filters.data?.staff.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name} ({member.email})
            </option>
          ))}
        </SelectField>
        <TextField
          label="Customer"
          name="customer"
          value={draft.customer}
          maxLength={254}
          onChange={(event) => setDraft({ ...draft, customer: event.target.value })}
          hint="Email, account number or id"
        />
        <SelectField label="Action" name="action" value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.target.value })}>
          <option value="">All actions</option>
          {filters.data?.actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </SelectField>
        <div className="flex gap-3">
          <Button type="submit">Filter</Button>
          <Button variant="secondary" onClick={() => apply({ page: 1, actorId: '', customer: '', action: '' })}>
            Reset
          </Button>
        </div>
      </form>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && !error ? (
        <>
          {data.items.length === 0 ? (
            <p role="status" className="text-slate-700">
              No actions match these filters.
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
