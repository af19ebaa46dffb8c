import { BadgeCheck, ChevronRight, KeyRound, Landmark, ShieldCheck, UserPen, Users, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Settings') }];
}

const items = [
  { to: paths.accountUpdateAccount, label: 'Edit Profile', text: 'Email, phone, address and profile picture', icon: UserPen },
  { to: paths.accountUpdatePassword, label: 'Update Password', text: 'Change the password you sign in with', icon: KeyRound },
  { to: paths.accountSecurity, label: 'Security', text: 'Passkeys, authenticator app, and where you are signed in', icon: ShieldCheck },
  { to: paths.accountKyc, label: 'Identity verification', text: 'Send your documents to verify your account', icon: BadgeCheck },
  { to: paths.accountBeneficiaries, label: 'Beneficiaries', text: 'Payees you saved after a transfer', icon: Users },
  { to: paths.accountDeposit, label: 'Deposit', text: 'Ways to add money to your account', icon: Wallet },
  { to: paths.accountInfo, label: 'Account information', text: 'Your details and account number', icon: Landmark },
];

export default function SettingsPage() {
  return (
    <div>
      <PageTitle>Settings</PageTitle>
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white">
        {items.map(({ to, label, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex items-center gap-4 px-5 py-4 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-600"
            >
              <Icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
              <span className="flex-1">
                <span className="block font-semibold text-slate-900">{label}</span>
                <span className="block text-sm text-slate-700">{text}</span>
              </span>
              <ChevronRight aria-hidden="true" className="h-5 w-5 text-slate-500" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
