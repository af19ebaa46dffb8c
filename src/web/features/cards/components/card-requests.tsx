import { useQuery } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { CARD_REQUEST_SENT_MESSAGE, CARD_STATUS_LABELS, ZCardRequest } from '../../../../shared/contracts/cards';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { contractResolver, useFormAction } from '../../../lib/form';
import { myCardRequestsQuery, requestCard } from '../api';

/** 'Request Card' records a request staff will see; the customer follows its status here. */
export function CardRequests() {
  const { data, isPending, error } = useQuery(myCardRequestsQuery());
  const form = useForm<{ cardType: 'debit' | 'credit' }>({ resolver: contractResolver(ZCardRequest), defaultValues: { cardType: 'debit' } });
  const action = useFormAction(form, requestCard);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:flex-row md:items-center">
        <div
          className="flex h-36 w-56 shrink-0 flex-col justify-between rounded-xl bg-gradient-to-br from-brand-700 to-brand-900 p-4 text-white"
          aria-hidden="true"
        >
          <CreditCard className="h-7 w-7" />
          <span className="whitespace-nowrap font-mono text-sm tracking-widest">•••• •••• •••• ••••</span>
        </div>
        <form onSubmit={action.submit} noValidate className="flex-1 space-y-4">
          {action.done ? <Alert tone="success">{action.result ?? CARD_REQUEST_SENT_MESSAGE}</Alert> : null}
          {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
          <div className="flex flex-wrap items-end gap-3">
            <div className="w-48">
              <SelectField label="Card type" {...form.register('cardType')}>
                <option value="debit">Debit card</option>
                <option value="credit">Credit card</option>
              </SelectField>
            </div>
            <Button type="submit" disabled={action.busy}>
              {action.busy ? 'Sending...' : 'Request Card'}
            </Button>
          </div>
        </form>
      </div>
      <section aria-labelledby="card-requests-heading">
        <h2 id="card-requests-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Your card requests
        </h2>
        {isPending ? <p role="status">Loading...</p> : null}
        {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
        {data && data.length === 0 ? <p className="text-slate-700">You have not requested a card yet.</p> : null}
        {data && data.length > 0 ? (
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {data.map((request) => (
              <li key={request._id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
                <span className="font-medium text-slate-900">{request.cardType === 'credit' ? 'Credit card' : 'Debit card'}</span>
                <span className="text-sm text-slate-700">requested {formatDate(request.createdAt)}</span>
                <span className="text-sm font-semibold text-slate-900">
                  {CARD_STATUS_LABELS[request.status]}
                  {request.note ? <span className="font-normal text-slate-700"> · {request.note}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
