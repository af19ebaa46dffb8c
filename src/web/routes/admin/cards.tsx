import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { CARD_STATUS_LABELS, CARD_STATUS_NEXT, type CardRequestDto, type CardRequestStatus } from '../../../shared/contracts/cards';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Pager } from '../../components/ui/pager';
import { PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form';
import { cardQueueQuery, setCardStatus } from '../../features/cards/api';
import { StatusTabs } from '../../features/kyc/components/status-tabs';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { paths } from '../../paths';

export function meta() {
  return [{ title: 'Card requests' }];
}

const STATUSES = [
  { value: 'pending', label: 'Pending review' },
  { value: 'approved', label: 'Approved' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'rejected', label: 'Declined' },
  { value: 'all', label: 'All' },
];
const ACTION_LABELS: Record<CardRequestStatus, string> = { pending: 'Reopen', approved: 'Approve', rejected: 'Decline', shipped: 'Mark shipped' };

function RequestRow({ request }: { request: CardRequestDto }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const mutation = useMutation({
    mutationFn: (status: CardRequestStatus) => setCardStatus(request._id, status, note.trim() || undefined),
    onSuccess: async (message) => {
      toast.success(message);
      setError('');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'cards'] });
    },
    onError: (caught) => setError(errorMessage(caught)),
  });
  const next = CARD_STATUS_NEXT[request.status];
  const name = request.customer ? `${request.customer.firstName} ${request.customer.lastName}` : 'Customer';
  return (
    <tr className="border-b border-slate-100 align-top">
      <td className="py-3 pr-4">
        {request.customer ? (
          <Link to={paths.adminUser(request.customer.id)} className="font-medium text-brand-800 hover:underline">
            {name}
          </Link>
        ) : null}
        <div className="text-sm text-slate-700">{request.customer?.email}</div>
      </td>
      <td className="py-3 pr-4 capitalize">{request.cardType}</td>
      <td className="py-3 pr-4">{formatDate(request.createdAt)}</td>
      <td className="py-3 pr-4">
        {CARD_STATUS_LABELS[request.status]}
        {request.note ? <div className="text-sm text-slate-700">{request.note}</div> : null}
      </td>
      <td className="py-3">
        {next.length > 0 ? (
          <div className="space-y-2">
            <TextField
              label={`Note for ${name}`}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={500}
              hint="Required to decline; emailed to the customer."
            />
            <div className="flex flex-wrap gap-2">
              {next.map((status) => (
                <Button
                  key={status}
                  variant={status === 'rejected' ? 'danger' : 'primary'}
                  disabled={mutation.isPending}
                  onClick={() => mutation.mutate(status)}
                >
                  {ACTION_LABELS[status]}
                  <span className="sr-only">
                    {' '}
                    {name}&apos;s {request.cardType} card request
                  </span>
                </Button>
              ))}
            </div>
            {error ? <Alert tone="error">{error}</Alert> : null}
          </div>
        ) : (
          <span className="text-sm text-slate-700">No further action</span>
        )}
      </td>
    </tr>
  );
}

export default function AdminCardsPage() {
  const [status, setStatus] = useState('pending');
  const [page, setPage] = useState(1);
  const { data, isPending, error } = useQuery(cardQueueQuery(status, page));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Customers' card requests: approve, decline with a note, then mark shipped.">Card requests</PageTitle>
      <StatusTabs
        label="Request status"
        options={STATUSES}
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
      />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No card requests here.</p> : null}
      {data && data.items.length > 0 ? (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white p-4">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Card requests</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-800">
                <th scope="col" className="py-2 pr-4">
                  Customer
                </th>
                <th scope="col" className="py-2 pr-4">
                  Card
                </th>
                <th scope="col" className="py-2 pr-4">
                  Requested
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2">
                  Action
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((request) => (
                <RequestRow key={request._id} request={request} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {data && pages > 1 ? <Pager page={page} pageSize={data.pageSize} total={data.total} label="Card requests" onPage={setPage} /> : null}
    </div>
  );
}
