import { useEffect, useRef, useState } from 'react';
import { STANDING_ORDER_FREQUENCY_LABELS, type StandingOrderDto } from '../../../../shared/contracts/standing-orders';
import { Button } from '../../../components/ui/button';
import { formatDate, formatDollars } from '../../../lib/format';

const STATUS_LABELS: Record<StandingOrderDto['status'], string> = { active: 'Active', finished: 'Finished', cancelled: 'Cancelled' };

function lastResultText(order: StandingOrderDto): string {
  const result = order.lastResult;
  if (!result) return 'No payment yet';
  const due = formatDate(result.dueDate);
  if (result.outcome === 'paid') return `Paid (due ${due})`;
  if (result.outcome === 'retrying') return `Not paid yet (due ${due}): ${result.reason ?? ''}`;
  return `Not paid (due ${due}): ${result.reason ?? ''}`;
}

function nextRunText(order: StandingOrderDto): string {
  if (!order.nextRunDate) return order.status === 'cancelled' ? 'None: cancelled' : 'None: finished';
  const date = formatDate(order.nextRunDate);
  return order.retryAt ? `${date} (tried again at ${formatDate(order.retryAt, 'time')})` : date;
}

/**
 * The question that replaces an order's Cancel button. Focus moves to it (the button it replaces is
 * gone): a screen reader reads it, and its two answers come next.
 */
function CancelConfirmation({ title, busy, onYes, onKeep }: { title: string; busy: boolean; onYes: () => void; onKeep: () => void }) {
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => question.current?.focus(), []);
  return (
    <div className="flex flex-wrap items-center gap-3" role="group" aria-label={`Cancel the standing order of ${title}?`}>
      <p ref={question} tabIndex={-1} className="text-sm font-medium text-slate-900 focus:outline-none">
        Cancel this standing order? No further payment will be made.
      </p>
      <Button variant="danger" className="px-3 py-1.5" disabled={busy} onClick={onYes}>
        Yes, cancel it
      </Button>
      <Button variant="secondary" className="px-3 py-1.5" disabled={busy} onClick={onKeep}>
        Keep it
      </Button>
    </div>
  );
}

/**
 * The customer's standing orders: each with its payee, schedule, next run date and last result;
 * active ones can be cancelled. Focus never falls to the page: "Keep it" returns it to the order's
 * Cancel button, and once the order is cancelled it goes to the order's title.
 */
export function StandingOrderList({ orders, busy, onCancel }: { orders: StandingOrderDto[]; busy: boolean; onCancel: (order: StandingOrderDto) => void }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const keptButton = useRef<HTMLButtonElement>(null);
  const cancelledTitle = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (kept) keptButton.current?.focus();
  }, [kept]);
  const cancelled = confirming !== null && orders.some((order) => order.id === confirming && order.status !== 'active');
  useEffect(() => {
    if (!cancelled) return;
    cancelledTitle.current?.focus();
    setConfirming(null);
  }, [cancelled]);
  if (orders.length === 0) return <p className="text-slate-700">You have no standing orders yet.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Standing orders">
      {orders.map((order) => {
        const title = `${formatDollars(order.amount)} to ${order.payee}`;
        return (
          <li key={order.id} className="space-y-2 py-4" data-testid="standing-order">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h3
                  ref={order.id === confirming ? cancelledTitle : undefined}
                  tabIndex={-1}
                  className="break-words font-semibold text-slate-900 focus:outline-none"
                >
                  {title}
                </h3>
                <p className="text-sm text-slate-700 wrap-anywhere">{order.description}</p>
              </div>
              <span
                className={`rounded px-2 py-0.5 text-xs font-semibold ${order.status === 'active' ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-100 text-slate-800'}`}
              >
                {STATUS_LABELS[order.status]}
              </span>
            </div>
            <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-slate-600">Schedule</dt>
                <dd className="text-slate-900">
                  {order.frequency === 'once'
                    ? `Once, on ${formatDate(order.startDate)}`
                    : `${STANDING_ORDER_FREQUENCY_LABELS[order.frequency]} from ${formatDate(order.startDate)}`}
                  {order.endDate ? ` until ${formatDate(order.endDate)}` : ''}
                  {order.count ? `, ${order.count} payment${order.count === 1 ? '' : 's'} at most` : ''}
                </dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-slate-600">From</dt>
                <dd className="text-slate-900">{order.from === 'savings' ? 'Savings' : 'Checking'}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-slate-600">Next run</dt>
                <dd className="text-slate-900">{nextRunText(order)}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="text-slate-600">Last result</dt>
                <dd className="break-words text-slate-900">{lastResultText(order)}</dd>
              </div>
            </dl>
            {order.status === 'active' ? (
              confirming === order.id ? (
                <CancelConfirmation
                  title={title}
                  busy={busy}
                  onYes={() => onCancel(order)}
                  onKeep={() => {
                    setConfirming(null);
                    setKept(order.id);
                  }}
                />
              ) : (
                <Button
                  ref={order.id === kept ? keptButton : undefined}
                  variant="secondary"
                  className="px-3 py-1.5"
                  disabled={busy}
                  aria-label={`Cancel standing order: ${title}`}
                  onClick={() => {
                    setKept(null);
                    setConfirming(order.id);
                  }}
                >
                  Cancel
                </Button>
              )
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
