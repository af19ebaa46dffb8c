import { Link } from 'react-router';
import type { TrialBalanceDto, TrialBalanceLineDto } from '../../../../shared/contracts/reports';
import { DataTable, type DataColumn } from '../../../components/ui/data-table';
import { formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { accountLine, balanceCents, isBankAccount } from '../format';

const FIGURES = [
  ['openingCents', 'Opening'],
  ['debitsCents', 'Debits'],
  ['creditsCents', 'Credits'],
  ['closingCents', 'Closing'],
] as const;

type Figures = Record<(typeof FIGURES)[number][0], number>;

/** One row of the table: an account that moved, or the one row for every account that did not. */
type Row = { line: TrialBalanceLineDto } | { unchanged: { accounts: number; balanceCents: number } };

function AccountCell({ line }: { line: TrialBalanceLineDto }) {
  const name = accountLine(line.kind, line.name, line.number, line.ownerName);
  if (isBankAccount(line.kind) || !line.ownerId) return <span className="font-medium text-slate-900">{name}</span>;
  return (
    <Link to={paths.adminUser(line.ownerId)} className="font-medium text-brand-800 hover:underline">
      {name}
    </Link>
  );
}

const figuresOf = (row: Row): Figures =>
  'line' in row ? row.line : { openingCents: row.unchanged.balanceCents, debitsCents: 0, creditsCents: 0, closingCents: row.unchanged.balanceCents };

const columns: Array<DataColumn<Row>> = [
  {
    header: 'Account',
    kind: 'title',
    rowHeader: true,
    cell: (row) =>
      'line' in row ? <AccountCell line={row.line} /> : <span className="font-medium">{formatNumber(row.unchanged.accounts)} accounts that did not move</span>,
  },
  ...FIGURES.map(([field, label]): DataColumn<Row> => ({
    header: label,
    align: 'right',
    className: 'tabular-nums md:whitespace-nowrap',
    cell: (row) => balanceCents(figuresOf(row)[field]),
  })),
];

/**
 * A closed day's trial balance: each account that moved (opening - debits + credits = closing),
 * then one row for every account that did not, then the totals; opening and closing each total
 * zero and debits equal credits. The back office's one list (DataTable): a table from 768 px, one
 * card per account below.
 */
export function TrialBalanceTable({ report }: { report: TrialBalanceDto }) {
  const totals: Figures = {
    openingCents: report.totals.openingCents + report.unchanged.balanceCents,
    debitsCents: report.totals.debitsCents,
    creditsCents: report.totals.creditsCents,
    closingCents: report.totals.closingCents + report.unchanged.balanceCents,
  };
  const rows: Row[] = [...report.lines.map((line) => ({ line })), { unchanged: report.unchanged }];
  return (
    <DataTable
      caption={`Trial balance of ${report.date}: every account that moved, the accounts that did not, and the totals`}
      rows={rows}
      rowKey={(row) => ('line' in row ? row.line.accountId : 'unchanged')}
      rowProps={(row) => ('line' in row ? { 'data-testid': 'trial-balance-row' } : { className: 'bg-slate-50!' })}
      columns={columns}
      footer={['Totals', ...FIGURES.map(([field]) => balanceCents(totals[field]))]}
      footerProps={{ 'data-testid': 'trial-balance-total-row' }}
    />
  );
}
