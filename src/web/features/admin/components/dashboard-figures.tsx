import { Link } from 'react-router';
import type { AdminDashboard } from '../../../../shared/contracts/admin';
import { formatCents, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import type { StaffPage } from '../../../../shared/staff-roles';
import { useMayOpen } from '../../../lib/staff-access';

interface Figure {
  /** The page the figure explains: shown only to a role that may open it. */
  page: StaffPage;
  label: string;
  value: string;
  detail?: string;
  to: string;
  linkText: string;
}

/** The back office's morning numbers, each leading to the list that explains it. */
export function DashboardFigures({ data }: { data: AdminDashboard }) {
  const mayOpen = useMayOpen();
  const figures: Figure[] = [
    { page: 'adminUsers', label: 'Customers', value: formatNumber(data.customers), to: paths.adminUsers, linkText: 'All customers' },
    {
      page: 'adminUsers',
      label: 'Deposits held',
      value: formatCents(data.depositsHeldCents),
      detail: 'Savings and checking, from the ledger',
      to: paths.adminUsers,
      linkText: 'Customers and their accounts',
    },
    {
      page: 'adminJournal',
      label: "Today's transfers",
      value: formatNumber(data.transfersToday.count),
      detail: `${formatCents(data.transfersToday.volumeCents)} moved (the bank's day, ${data.timeZone})`,
      // The bank's day by booking time, as the count is (the server's instants, not the browser's
      // clock); the journal cannot narrow to the transfer kinds together, so it lists all its entries.
      to: `${paths.adminJournal}?${new URLSearchParams({ bookedFrom: data.transfersToday.from, bookedTo: data.transfersToday.to }).toString()}`,
      linkText: "Today's journal entries",
    },
    { page: 'adminKyc', label: 'Pending KYC reviews', value: formatNumber(data.pendingKycReviews), to: paths.adminKyc, linkText: 'Identity reviews' },
    {
      page: 'adminLoans',
      label: 'Pending loan applications',
      value: data.pendingLoanApplications === null ? 'n/a' : formatNumber(data.pendingLoanApplications),
      to: paths.adminLoans,
      linkText: 'Loan applications',
    },
    {
      page: 'adminContacts',
      label: 'New contact messages',
      value: data.newContactMessages === null ? 'n/a' : formatNumber(data.newContactMessages),
      to: paths.adminContacts,
      linkText: 'Contact messages',
    },
  ];
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {figures
        .filter((figure) => mayOpen(figure.page))
        .map((figure) => (
          <li key={figure.label} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <p className="text-sm font-medium text-slate-700">{figure.label}</p>
            <p className="mt-1 text-3xl font-bold text-slate-900">{figure.value}</p>
            {figure.detail ? <p className="mt-1 text-sm text-slate-700">{figure.detail}</p> : null}
            <Link to={figure.to} className="mt-3 inline-block text-sm font-semibold text-brand-800 hover:underline">
              {figure.linkText}
              <span className="sr-only"> ({figure.label.toLowerCase()})</span>
            </Link>
          </li>
        ))}
    </ul>
  );
}
