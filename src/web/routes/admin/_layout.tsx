import { BadgeCheck, BookOpen, ClipboardList, CreditCard, HandCoins, Landmark, LayoutDashboard, Mail, PlusCircle, Users } from 'lucide-react';
import { Outlet, redirect } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { loadSignedInUser } from '../../features/auth/guards';
import { useCurrentUser } from '../../lib/query';

const links: ShellLink[] = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/admin/users', label: 'Users', icon: Users },
  { to: '/admin/journal', label: 'Journal', icon: BookOpen },
  { to: '/admin/ledger', label: 'General ledger', icon: Landmark },
  { to: '/admin/transactions/add-transactions', label: 'Add Transaction', icon: PlusCircle },
  { to: '/admin/kyc', label: 'Identity reviews', icon: BadgeCheck },
  { to: '/admin/loans', label: 'Loans', icon: HandCoins },
  { to: '/admin/cards', label: 'Card requests', icon: CreditCard },
  { to: '/admin/contacts', label: 'Contacts', icon: Mail },
  { to: '/admin/audit', label: 'Audit log', icon: ClipboardList },
];

export async function clientLoader() {
  const user = await loadSignedInUser('/admin/login');
  if (!user.isAdmin) throw redirect('/account/home');
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
      navLabel="Back office"
      homePath="/admin/dashboard"
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
