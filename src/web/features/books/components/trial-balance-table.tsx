import { Link } from 'react-router';
import type { TrialBalanceDto, TrialBalanceLineDto } from '../../../../shared/contracts/reports';
import { formatCents, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { accountLine, isBankAccount } from '../format';

const FIGURES = [
  ['openingCents', 'Opening'],
  ['debitsCents', 'Debits'],
  ['creditsCents', 'Credits'],
  ['closingCents', 'Closing'],
] as const;

function AccountCell({ line }: { line: TrialBalanceLineDto }) {
  const name = accountLine(line.kind, line.name, line.number, line.ownerName);
  if (isBankAccount(line.kind) || !line.ownerId) return <span className="font-medium text-slate-900">{name}</span>;
  return (
    <Link to={paths.adminUser(line.ownerId)} className="font-medium text-brand-800 hover:underline">
      {name}
    </Link>
  );
}

/**
 * A closed day's trial balance: each account that moved (opening - debits + credits = closing),
 * then one row for every account that did not, then the totals; opening and closing each total
 * zero and debits equal credits. A table from 768 px, one card per account below.
 */
export function TrialBalanceTable({ report }: { report: TrialBalanceDto }) {
  const unchanged = `${formatNumber(report.unchanged.accounts)} accounts that did not move`;
  const totals = {
    openingCents: report.totals.openingCents + report.unchanged.balanceCents,
    debitsCents: report.totals.debitsCents,
    creditsCents: report.totals.creditsCents,
    closingCents: report.totals.closingCents + report.unchanged.balanceCents,
  };
  return (
    <>
      <ul className="space-y-3 md:hidden" aria-label={`Trial balance of ${report.date}`}>
        {report.lines.map((line) => (
          <li key={line.accountId} className="rounded-lg border border-slate-200 p-4" data-testid="trial-balance-line">
            <p className="min-w-0 break-words">
              <AccountCell line={line} />
            </p>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
              {FIGURES.map(([field, label]) => (
                <div key={field} className="contents">
                  <dt className="text-slate-700">{label}</dt>
                  <dd className="text-right tabular-nums text-slate-900">{formatCents(line[field])}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
        <li className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm">
          <p className="font-medium text-slate-900">{unchanged}</p>
          <p className="mt-1 flex justify-between">
            <span className="text-slate-700">Opening and closing</span>
            <span className="tabular-nums text-slate-900">{formatCents(report.unchanged.balanceCents)}</span>
          </p>
        </li>
        <li className="rounded-lg border-2 border-slate-300 p-4 text-sm" data-testid="trial-balance-totals">
          <p className="font-semibold text-slate-900">Totals</p>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
            {FIGURES.map(([field, label]) => (
              <div key={field} className="contents">
                <dt className="text-slate-700">{label}</dt>
                <dd className="text-right font-semibold tabular-nums text-slate-900">{formatCents(totals[field])}</dd>
              </div>
            ))}
          </dl>
        </li>
      </ul>
      <div className="hidden md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Trial balance of {report.date}: every account that moved, the accounts that did not, and the totals</caption>
          <thead className="border-b border-slate-300 text-slate-800">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Account
              </th>
              {FIGURES.map(([field, label]) => (
                <th key={field} scope="col" className="py-2 pr-3 text-right">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {report.lines.map((line) => (
              <tr key={line.accountId} data-testid="trial-balance-row">
                <th scope="row" className="py-2 pr-3 font-normal">
                  <AccountCell line={line} />
                </th>
                {FIGURES.map(([field]) => (
                  <td key={field} className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                    {formatCents(line[field])}
                  </td>
                ))}
              </tr>
            ))}
            <tr className="bg-slate-50">
              <th scope="row" className="py-2 pr-3 font-normal">
                {unchanged}
              </th>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCents(report.unchanged.balanceCents)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCents(0)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCents(0)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatCents(report.unchanged.balanceCents)}</td>
            </tr>
          </tbody>
          <tfoot className="border-t-2 border-slate-300 font-semibold text-slate-900">
            <tr data-testid="trial-balance-total-row">
              <th scope="row" className="py-2 pr-3">
                Totals
              </th>
              {FIGURES.map(([field]) => (
                <td key={field} className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                  {formatCents(totals[field])}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}
