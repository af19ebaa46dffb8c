import { ArrowLeftRight, CreditCard, HandCoins, History, House, KeyRound, LifeBuoy, UserRound } from 'lucide-react';
import { Link, Outlet, redirect } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { Avatar } from '../../components/layout/avatar';
import { loadSignedInUser } from '../../features/auth/guards';
import { useCurrentUser } from '../../lib/query';

const links: ShellLink[] = [
  { to: '/account/home', label: 'Dashboard', icon: House },
  { to: '/account/info', label: 'Account Info', icon: UserRound },
  { to: '/account/update-password', label: 'Password', icon: KeyRound },
  { to: '/account/transactions', label: 'Transactions', icon: History },
  { to: '/account/transfers', label: 'Transfers', icon: ArrowLeftRight },
  { to: '/account/loans', label: 'Loans', icon: HandCoins },
  { to: '/account/cards', label: 'Cards', icon: CreditCard },
  { to: '/account/support', label: 'Support', icon: LifeBuoy },
];

export async function clientLoader() {
  const user = await loadSignedInUser('/signin');
  if (user.isAdmin) throw redirect('/admin/dashboard');
  if (!user.isEmailConfirmed) throw redirect('/email-verification');
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
      navLabel="Account"
      homePath="/account/home"
      header={
        <div className="flex min-w-0 flex-1 items-center justify-end gap-3">
          <p className="truncate text-sm text-slate-700">
            {greeting()}, <span className="font-semibold text-slate-900">{user.firstName}</span>
          </p>
          <Link to="/account/info" className="rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
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
