import type { TransactionDto } from '../../../../shared/contracts/transactions';
import { formatDate, formatDollars } from '../../../lib/format';
import { kindLabel, signedAmount } from '../format';

/**
 * A customer's history as a table: each line with its description, kind, account and dates, the
 * signed amount, and the running balance (that account's balance right after the line, as the
 * bank booked it, whatever the filter shows); on a phone the balance sits under the amount.
 */
export function TransactionTable({ items, emptyText }: { items: TransactionDto[]; emptyText: string }) {
  if (items.length === 0) return <p className="text-slate-700">{emptyText}</p>;
  return (
    <div
      className="-mx-2 overflow-x-auto px-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      tabIndex={0}
      role="region"
      aria-label="Transactions"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Transactions, newest first, with the balance of the account after each one</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            <th scope="col" className="py-2 pr-3 font-semibold">
              Transaction
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-semibold">
              Amount
            </th>
            <th scope="col" className="hidden py-2 text-right font-semibold sm:table-cell">
              Balance
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {items.map((line) => (
            <tr key={line._id} className="align-top" data-testid="transaction-line">
              <td className="min-w-40 py-3 pr-3 wrap-anywhere">
                <p className="text-base font-medium text-slate-900">{line.description}</p>
                <p className="mt-0.5 text-slate-700">
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
              </td>
              <td
                className={`whitespace-nowrap py-3 pr-3 text-right font-semibold tabular-nums ${line.transactionType === 'credit' ? 'text-green-800' : 'text-slate-900'}`}
              >
                <span className="sr-only">{line.transactionType === 'credit' ? 'Credit' : 'Debit'} </span>
                {signedAmount(line)}
                {/* On a phone the balance column would not fit: the balance goes under the amount. */}
                <span className="mt-1 block text-xs font-normal text-slate-700 sm:hidden">Balance {formatDollars(line.balanceAfter)}</span>
              </td>
              <td className="hidden whitespace-nowrap py-3 text-right tabular-nums text-slate-800 sm:table-cell" data-testid="running-balance">
                {formatDollars(line.balanceAfter)}
                <span className="block text-xs text-slate-600">{line.account === 'savings' ? 'Savings' : 'Checking'}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
