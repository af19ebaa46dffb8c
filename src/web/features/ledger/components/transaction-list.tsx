import type { TransactionDto } from '../../../../shared/contracts/transactions';
import { formatDate } from '../../../lib/format';
import { kindLabel, signedAmount } from '../format';

/** A customer's history lines: description, kind badge, account, dates and signed amount. */
export function TransactionList({ items, emptyText = 'No transactions yet.' }: { items: TransactionDto[]; emptyText?: string }) {
  if (items.length === 0) return <p className="text-slate-700">{emptyText}</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Transactions">
      {items.map((line) => (
        <li key={line._id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid="transaction-line">
          <div className="min-w-0 wrap-anywhere">
            <p className="font-medium text-slate-900">{line.description}</p>
            <p className="mt-0.5 text-sm text-slate-700">
              <span
                className={`mr-2 inline-block rounded px-1.5 py-0.5 text-xs font-semibold ${line.kind === 'adjustment' || line.kind === 'reversal' ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-800'}`}
              >
                {kindLabel(line)}
              </span>
              {line.account === 'savings' ? 'Savings' : 'Checking'} · {formatDate(line.date)}
              {line.counterparty ? ` · ${line.counterparty}` : ''}
            </p>
            <p className="text-xs text-slate-600">
              Booked {formatDate(line.bookedAt, 'dateTime')}
              {line.status === 'reversed' ? <span className="ml-2 font-semibold text-red-800">Reversed</span> : null}
            </p>
          </div>
          <p className={`whitespace-nowrap font-semibold tabular-nums ${line.transactionType === 'credit' ? 'text-green-800' : 'text-slate-900'}`}>
            <span className="sr-only">{line.transactionType === 'credit' ? 'Credit' : 'Debit'} </span>
            {signedAmount(line)}
          </p>
        </li>
      ))}
    </ul>
  );
}
