import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { CARD_STATUS_LABELS, CARD_STATUS_NEXT, ZCardStatusChange, type CardRequestDto, type CardRequestStatus } from '../../../shared/contracts/cards';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { DataTable, type DataColumn } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form';
import { Pager } from '../../components/ui/pager';
import { StatusTabs } from '../../components/ui/status-tabs';
import { CARD_QUEUE_STATUSES, cardQueueQuery, setCardStatus, type CardQueueStatus } from '../../features/cards/api';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { contractResolver, useFormAction, fieldError } from '../../lib/form';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/cards';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';
import { EmailAddress } from '../../components/ui/email-address';

export function meta() {
  return [{ title: staffPageTitle('Card requests') }];
}

const STATUSES: Array<{ value: CardQueueStatus; label: string }> = [
  { value: 'pending', label: 'Pending review' },
  { value: 'approved', label: 'Approved' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'rejected', label: 'Declined' },
  { value: 'all', label: 'All' },
];
const ACTION_LABELS: Record<CardRequestStatus, string> = { pending: 'Reopen', approved: 'Approve', rejected: 'Decline', shipped: 'Mark shipped' };

const readParams = (search: URLSearchParams) => ({ status: choiceParam(search, 'status', CARD_QUEUE_STATUSES, 'pending'), page: pageParam(search) });

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminCards');
  const { status, page } = readParams(searchOf(request));
  return prefetch(cardQueueQuery(status, page));
}

interface StatusValues {
  status: CardRequestStatus | '';
  note: string;
}

/** The next status, with a note the customer is emailed (required to decline), checked with PATCH's contract. */
function StatusForm({ request, name }: { request: CardRequestDto; name: string }) {
  const form = useForm<StatusValues>({ resolver: contractResolver(ZCardStatusChange), defaultValues: { status: '', note: '' } });
  const action = useFormAction(
    form,
    ({ status, note }) => setCardStatus(request._id, { status: status as CardRequestStatus, ...(note.trim() ? { note: note.trim() } : {}) }),
    { successToast: (message) => message },
  );
  const decide = (status: CardRequestStatus) => {
    form.setValue('status', status);
    void action.submit();
  };
  return (
    // Each action is its own button; Enter in the note chooses none of them.
    <form onSubmit={(event) => event.preventDefault()} noValidate className="w-full space-y-2 text-left">
      <TextField
        label={`Note for ${name}`}
        maxLength={TEXT_LENGTH_MAX}
        hint="Required to decline; emailed to the customer."
        {...fieldError(form.formState.errors.note)}
        {...form.register('note')}
      />
      <div className="flex flex-wrap gap-2">
        {CARD_STATUS_NEXT[request.status].map((status) => (
          <Button key={status} variant={status === 'rejected' ? 'danger' : 'primary'} disabled={action.busy} onClick={() => decide(status)}>
            {ACTION_LABELS[status]}
            <span className="sr-only">
              {' '}
              {name}&apos;s {request.cardType} card request
            </span>
          </Button>
        ))}
      </div>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
    </form>
  );
}

const customerName = (request: CardRequestDto) => (request.customer ? `${request.customer.firstName} ${request.customer.lastName}` : 'Customer');

const REQUEST_COLUMNS: Array<DataColumn<CardRequestDto>> = [
  {
    header: 'Customer',
    kind: 'title',
    cell: (request) => (
      <>
        {request.customer ? (
          <Link to={paths.adminUser(request.customer.id)} className="font-medium text-brand-800 hover:underline">
            {customerName(request)}
          </Link>
        ) : null}
        {request.customer ? <EmailAddress value={request.customer.email} className="block text-sm font-normal text-slate-700" /> : null}
      </>
    ),
  },
  { header: 'Card', className: 'capitalize', cell: (request) => request.cardType },
  { header: 'Requested', cell: (request) => formatDate(request.createdAt) },
  {
    header: 'Status',
    cell: (request) => (
      <span>
        {CARD_STATUS_LABELS[request.status]}
        {request.note ? <span className="block text-sm text-slate-700">{request.note}</span> : null}
      </span>
    ),
  },
  {
    header: 'Action',
    kind: 'actions',
    className: 'md:min-w-56',
    cell: (request) =>
      CARD_STATUS_NEXT[request.status].length > 0 ? (
        <StatusForm key={request.status} request={request} name={customerName(request)} />
      ) : (
        <span className="text-sm text-slate-700">No further action</span>
      ),
  },
];

export default function AdminCardsPage() {
  const [search, setSearch] = useSearchParams();
  const { status, page } = readParams(search);
  const show = (next: { status: CardQueueStatus; page: number }) => setSearch(listSearch(next, { status: 'pending', page: 1 }));
  const { data, isPending, error } = useQuery(cardQueueQuery(status, page));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Customers' card requests: approve, decline with a note, then mark shipped.">Card requests</PageTitle>
      <StatusTabs label="Request status" options={STATUSES} value={status} onChange={(value) => show({ status: value, page: 1 })} />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No card requests here.</p> : null}
      {data && data.items.length > 0 ? (
        <DataTable caption="Card requests" columns={REQUEST_COLUMNS} rows={data.items} rowKey={(request) => request._id} />
      ) : null}
      {data && pages > 1 ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Card requests" onPage={(next) => show({ status, page: next })} />
      ) : null}
    </div>
  );
}
