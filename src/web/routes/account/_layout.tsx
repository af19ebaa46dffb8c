import { ArrowLeftRight, CreditCard, FileText, HandCoins, History, House, KeyRound, LifeBuoy, QrCode, Send, UserRound } from 'lucide-react';
import { Link, Outlet, redirect } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { Avatar } from '../../components/layout/avatar';
import { signOut } from '../../features/auth/api';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { loadSignedInUser } from '../../features/auth/guards';
import type { Route } from './+types/_layout';
import { useCurrentUser } from '../../lib/current-user';
import { paths } from '../../paths';

const links: ShellLink[] = [
  { to: paths.accountHome, label: 'Dashboard', icon: House },
  { to: paths.accountInfo, label: 'Account Info', icon: UserRound },
  { to: paths.accountUpdatePassword, label: 'Password', icon: KeyRound },
  { to: paths.accountTransactions, label: 'Transactions', icon: History },
  { to: paths.accountStatements, label: 'Statements', icon: FileText },
  { to: paths.accountTransfers, label: 'Transfers', icon: ArrowLeftRight },
  { to: paths.accountReceive, label: 'Receive', icon: QrCode },
  { to: paths.accountRequests, label: 'Requests', icon: Send },
  { to: paths.accountLoans, label: 'Loans', icon: HandCoins },
  { to: paths.accountCards, label: 'Cards', icon: CreditCard },
  { to: paths.accountSupport, label: 'Support', icon: LifeBuoy },
];

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const user = await loadSignedInUser(request);
  if (user.isAdmin) throw redirect(paths.adminDashboard);
  if (!user.isEmailConfirmed) throw redirect(paths.emailVerification);
  return null;
}

function greeting(): string {
  const hour = new Date().getHours();
  return hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
}

export default function AccountLayout() {
  return (
    <SignedInProviders>
      <AccountLayoutFrame />
    </SignedInProviders>
  );
}

function AccountLayoutFrame() {
  const user = useCurrentUser();
  return (
    <AppShell
      links={links}
      onSignOut={signOut}
      navLabel="Account"
      homePath={paths.accountHome}
      header={
        <div className="flex min-w-0 flex-1 items-center justify-end gap-3">
          <p className="truncate text-sm text-slate-700">
            {greeting()}, <span className="font-semibold text-slate-900">{user.firstName}</span>
          </p>
          <NotificationBell />
          <Link to={paths.accountInfo} className="rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
            <Avatar firstName={user.firstName} lastName={user.lastName} url={user.profilePicture?.url} />
            <span className="sr-only">Account information</span>
          </Link>
        </div>
      }
    >
      <Outlet />
    </AppShell>
  );
}
