import {
  BadgeCheck,
  BookOpen,
  ClipboardList,
  CreditCard,
  FileSpreadsheet,
  HandCoins,
  Landmark,
  LayoutDashboard,
  ListChecks,
  Mail,
  PlusCircle,
  Users,
} from 'lucide-react';
import { Outlet, redirect } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { signOut } from '../../features/auth/api';
import { loadSignedInUser } from '../../features/auth/guards';
import { useCurrentUser } from '../../lib/current-user';
import { paths } from '../../paths';

const links: ShellLink[] = [
  { to: paths.adminDashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.adminUsers, label: 'Users', icon: Users },
  { to: paths.adminJournal, label: 'Journal', icon: BookOpen },
  { to: paths.adminLedger, label: 'General ledger', icon: Landmark },
  { to: paths.adminReports, label: 'Reports', icon: FileSpreadsheet },
  { to: paths.adminAddTransaction, label: 'Add Transaction', icon: PlusCircle },
  { to: paths.adminKyc, label: 'Identity reviews', icon: BadgeCheck },
  { to: paths.adminLoans, label: 'Loans', icon: HandCoins },
  { to: paths.adminCards, label: 'Card requests', icon: CreditCard },
  { to: paths.adminContacts, label: 'Contacts', icon: Mail },
  { to: paths.adminAudit, label: 'Audit log', icon: ClipboardList },
  { to: paths.adminJobs, label: 'Background jobs', icon: ListChecks },
];

export async function clientLoader() {
  const user = await loadSignedInUser(paths.adminLogin);
  if (!user.isAdmin) throw redirect(paths.accountHome);
  return null;
}

export default function AdminLayout() {
  return (
    <SignedInProviders>
      <AdminLayoutFrame />
    </SignedInProviders>
  );
}

function AdminLayoutFrame() {
  const user = useCurrentUser();
  return (
    <AppShell
      links={links}
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
