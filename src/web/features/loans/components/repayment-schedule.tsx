import type { LoanDto } from '../../../../shared/contracts/loans';
import { formatDate, formatDollars } from '../../../lib/format';

export function RepaymentSchedule({ loan }: { loan: LoanDto }) {
  if (!loan.schedule) return null;
  return (
    // On a phone the table is wider than the card and scrolls sideways: a region a keyboard reaches
    // (Tab, then the arrow keys), as axe asks of every scrolling region.
    <div
      className="relative overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      tabIndex={0}
      role="region"
      aria-label="Repayment schedule"
    >
      <table className="min-w-full text-sm">
        <caption className="sr-only">Repayment schedule</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-800">
            <th scope="col" className="py-2 pr-4">
              #
            </th>
            <th scope="col" className="py-2 pr-4">
              Status
            </th>
            <th scope="col" className="py-2 pr-4">
              Due date
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Payment
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Principal
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Interest
            </th>
            <th scope="col" className="py-2 text-right">
              Balance after
            </th>
          </tr>
        </thead>
        <tbody>
          {loan.schedule.map((row) => (
            <tr key={row.number} className="border-b border-slate-100">
              <td className="py-1.5 pr-4">{row.number}</td>
              <td className="py-1.5 pr-4">{row.number <= loan.installmentsPaid ? 'Paid' : row.number === loan.installmentsPaid + 1 ? 'Next' : ''}</td>
              <td className="py-1.5 pr-4">{formatDate(row.dueDate)}</td>
              <td className="py-1.5 pr-4 text-right">{formatDollars(row.payment)}</td>
              <td className="py-1.5 pr-4 text-right">{formatDollars(row.principal)}</td>
              <td className="py-1.5 pr-4 text-right">{formatDollars(row.interest)}</td>
              <td className="py-1.5 text-right">{formatDollars(row.balance)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
