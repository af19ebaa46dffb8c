import { useState } from 'react';
import type { PaymentRequestDto, PaymentRequestStatus } from '../../../../shared/contracts/payment-requests';
import { Button } from '../../../components/ui/button';
import { useAction } from '../../../lib/action';
import { useInlineConfirmation } from '../../../lib/focus';
import { formatDate, formatDollars } from '../../../lib/format';
import { cancelPaymentRequest } from '../api/cancel-payment-request';
import { declinePaymentRequest } from '../api/decline-payment-request';
import { PayRequest } from './pay-request';

const STATUS_LABELS: Record<PaymentRequestStatus, { label: string; className: string }> = {
  pending: { label: 'Waiting', className: 'bg-amber-100 text-amber-900' },
  paid: { label: 'Paid', className: 'bg-green-100 text-green-900' },
  declined: { label: 'Declined', className: 'bg-slate-200 text-slate-800' },
  cancelled: { label: 'Cancelled', className: 'bg-slate-200 text-slate-800' },
  expired: { label: 'Expired', className: 'bg-slate-200 text-slate-800' },
};

/** What happened when, after "Sent ...": answered, or when a pending one expires or expired. */
function lifeOf(request: PaymentRequestDto): string {
  if (request.answeredAt) return ` · ${request.status} ${formatDate(request.answeredAt, 'dateTime')}`;
  if (request.status === 'expired') return ` · expired ${formatDate(request.expiresAt, 'dateTime')}`;
  return ` · expires ${formatDate(request.expiresAt, 'date')}`;
}

function StatusBadge({ status }: { status: PaymentRequestStatus }) {
  const { label, className } = STATUS_LABELS[status];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${className}`}>{label}</span>;
}

/**
 * One request. Its names and note are what customers typed, possibly one long word: they may break
 * anywhere (not only `break-words`, which leaves the word's width as the card's least width), so a
 * phone's page never scrolls sideways.
 */
function RequestLine({ request, children }: { request: PaymentRequestDto; children?: React.ReactNode }) {
  return (
    <li data-testid={`${request.direction}-request`} className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">
            {request.direction === 'received'
              ? `${request.counterparty} asks you for ${formatDollars(request.amount)}`
              : `${formatDollars(request.amount)} from ${request.counterparty}`}
          </p>
          {request.note ? <p className="text-sm text-slate-800 [overflow-wrap:anywhere]">“{request.note}”</p> : null}
          <p className="text-sm text-slate-700">
            Sent {formatDate(request.createdAt, 'dateTime')}
            {lifeOf(request)}
          </p>
        </div>
        <StatusBadge status={request.status} />
      </div>
      {children}
    </li>
  );
}

/** Requests addressed to the customer: a pending one can be paid (with an IMS code) or declined. */
export function ReceivedRequests({ items }: { items: PaymentRequestDto[] }) {
  const [paying, setPaying] = useState<string | null>(null);
  const [openedFrom, setOpenedFrom] = useState<string | null>(null);
  // Focus moves into the panel that replaces Pay, and back to Pay when it is cancelled (Escape too).
  const pay = useInlineConfirmation<HTMLDivElement>({ open: paying !== null, onCancel: () => setPaying(null) });
  const decline = useAction((id: string) => declinePaymentRequest(id), { successToast: (answer) => answer.message, errorToast: true });
  if (items.length === 0) return <p className="text-slate-700">Nobody has asked you for money yet.</p>;
  return (
    <ul className="divide-y divide-slate-200">
      {items.map((request) => (
        <RequestLine key={request.id} request={request}>
          {request.status === 'pending' ? (
            paying === request.id ? (
              <PayRequest request={request} onDone={() => setPaying(null)} onCancel={pay.cancel} ref={pay.panel} />
            ) : (
              <div className="mt-2 flex flex-wrap gap-3">
                <Button
                  ref={request.id === openedFrom ? pay.opener : undefined}
                  onClick={() => {
                    setOpenedFrom(request.id);
                    setPaying(request.id);
                  }}
                  disabled={decline.busy}
                >
                  Pay
                  <span className="sr-only">
                    {' '}
                    {request.counterparty} {formatDollars(request.amount)}
                  </span>
                </Button>
                <Button variant="secondary" onClick={() => void decline.run(request.id)} disabled={decline.busy}>
                  Decline
                  <span className="sr-only">
                    {' '}
                    the request from {request.counterparty} for {formatDollars(request.amount)}
                  </span>
                </Button>
              </div>
            )
          ) : null}
        </RequestLine>
      ))}
    </ul>
  );
}

/** Requests the customer sent, as they typed whom they asked; a pending one can be cancelled. */
export function SentRequests({ items }: { items: PaymentRequestDto[] }) {
  const cancel = useAction((id: string) => cancelPaymentRequest(id), { successToast: (answer) => answer.message, errorToast: true });
  if (items.length === 0) return <p className="text-slate-700">You have not asked anyone for money yet.</p>;
  return (
    <ul className="divide-y divide-slate-200">
      {items.map((request) => (
        <RequestLine key={request.id} request={request}>
          {request.status === 'pending' ? (
            <div className="mt-2">
              <Button variant="secondary" onClick={() => void cancel.run(request.id)} disabled={cancel.busy}>
                Cancel request
                <span className="sr-only">
                  {' '}
                  for {formatDollars(request.amount)} from {request.counterparty}
                </span>
              </Button>
            </div>
          ) : null}
        </RequestLine>
      ))}
    </ul>
  );
}
