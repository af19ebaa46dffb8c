import {
  BadgeCheck,
  BookOpen,
  ClipboardCheck,
  ClipboardList,
  CreditCard,
  FileSpreadsheet,
  HandCoins,
  Landmark,
  LayoutDashboard,
  ListChecks,
  Mail,
  PlusCircle,
  ShieldCheck,
  Users,
} from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, redirect, useLoaderData } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { signOut } from '../../features/auth/api';
import { loadSignedInUser } from '../../features/auth/guards';
import { pendingApprovalsQuery } from '../../features/approvals/api/pending-count';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { ApiError } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { queryClient } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/_layout';

const links: ShellLink[] = [
  { to: paths.adminDashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.adminUsers, label: 'Users', icon: Users },
  { to: paths.adminJournal, label: 'Journal', icon: BookOpen },
  { to: paths.adminLedger, label: 'General ledger', icon: Landmark },
  { to: paths.adminReports, label: 'Reports', icon: FileSpreadsheet },
  { to: paths.adminAddTransaction, label: 'Add Transaction', icon: PlusCircle },
  { to: paths.adminApprovals, label: 'Approvals', icon: ClipboardCheck },
  { to: paths.adminKyc, label: 'Identity reviews', icon: BadgeCheck },
  { to: paths.adminLoans, label: 'Loans', icon: HandCoins },
  { to: paths.adminCards, label: 'Card requests', icon: CreditCard },
  { to: paths.adminContacts, label: 'Contacts', icon: Mail },
  { to: paths.adminAudit, label: 'Audit log', icon: ClipboardList },
  { to: paths.adminJobs, label: 'Background jobs', icon: ListChecks },
  { to: paths.adminSecurity, label: 'Security', icon: ShieldCheck },
];

/**
 * Staff must have a second factor (ADR 011): a staff member without one reaches only the
 * enrolment page, in a frame with nothing else to click, until they set one up.
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  let factors;
  try {
    factors = await queryClient.fetchQuery({ ...factorSummaryQuery(), staleTime: 0 });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect(paths.adminLogin);
    throw error;
  }
  if (factors.enrolmentRequired) {
    if (new URL(request.url).pathname !== paths.adminSecurity) throw redirect(paths.adminSecurity);
    return { enrolOnly: true };
  }
  const user = await loadSignedInUser(paths.adminLogin);
  if (!user.isAdmin) throw redirect(paths.accountHome);
  return { enrolOnly: false };
}

export default function AdminLayout() {
  const { enrolOnly } = useLoaderData<typeof clientLoader>();
  return <SignedInProviders>{enrolOnly ? <EnrolmentFrame /> : <AdminLayoutFrame />}</SignedInProviders>;
}

/** The frame of a staff session that may only enrol a second factor: the enrolment page and sign-out. */
function EnrolmentFrame() {
  return (
    <AppShell
      links={[{ to: paths.adminSecurity, label: 'Security', icon: ShieldCheck }]}
      onSignOut={signOut}
      navLabel="Back office"
      homePath={paths.adminSecurity}
      header={<p className="text-lg font-semibold text-slate-900">Back office</p>}
    >
      <Outlet />
    </AppShell>
  );
}

function AdminLayoutFrame() {
  const user = useCurrentUser();
  // The sidebar's badge: requests waiting for a second staff member (ADR 023).
  const pending = useQuery(pendingApprovalsQuery()).data ?? 0;
  const shown = links.map((link) => (link.to === paths.adminApprovals ? { ...link, badge: { count: pending, label: 'pending' } } : link));
  return (
    <AppShell
      links={shown}
      onSignOut={signOut}
      navLabel="Back office"
      homePath={paths.adminDashboard}
      header={
        <div className="flex min-w-0 flex-1 items-center justify-between gap-3">
          <p className="text-lg font-semibold text-slate-900">Back office</p>
          <p className="hidden min-w-0 truncate text-sm text-slate-700 sm:block">
            Signed in as <span className="font-semibold text-slate-900">{user.email}</span>
          </p>
        </div>
      }
    >
      <Outlet />
    </AppShell>
  );
}
