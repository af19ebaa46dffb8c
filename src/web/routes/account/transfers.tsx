import { ArrowLeftRight, CalendarClock, Globe2, HandCoins, QrCode, Send, Users } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Transfers') }];
}

const options = [
  {
    to: paths.accountDomesticTransfer,
    title: 'Domestic Transfer',
    subtitle: 'Wire transfer',
    text: 'Send money to a bank account at home or abroad by wire.',
    icon: Globe2,
  },
  {
    to: paths.accountInternalTransfer,
    title: 'Internal Transfer',
    subtitle: 'Inter Account',
    text: 'Move money between your savings and checking accounts.',
    icon: ArrowLeftRight,
  },
  {
    to: paths.accountTransfer,
    title: 'Money Transfer',
    subtitle: 'Account to account',
    text: 'Pay another customer or an account at another US bank.',
    icon: Send,
  },
  {
    to: paths.accountBulkPayments,
    title: 'Bulk Payments',
    subtitle: 'Many payees at once',
    text: 'Pay up to 1,000 customers of this bank from one CSV file, approved once.',
    icon: Users,
  },
  {
    to: paths.accountStandingOrders,
    title: 'Standing Orders',
    subtitle: 'Scheduled payments',
    text: 'Pay the same amount every week or month, or once on a date you choose.',
    icon: CalendarClock,
  },
  {
    to: paths.accountReceive,
    title: 'Receive Money',
    subtitle: 'Your account details',
    text: 'Your account and routing numbers, and a QR code for payers here.',
    icon: QrCode,
  },
  {
    to: paths.accountRequests,
    title: 'Request Money',
    subtitle: 'Payment requests',
    text: 'Ask another customer for money, or pay what they ask of you.',
    icon: HandCoins,
  },
];

export default function TransfersPage() {
  return (
    <div>
      <PageTitle subtitle="Choose how you want to move money.">Transfers</PageTitle>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {options.map((option) => (
          <li key={option.to}>
            <Link
              to={option.to}
              className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <option.icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
              <span className="text-lg font-semibold text-slate-900">{option.title}</span>
              <span className="text-sm font-medium text-brand-800">{option.subtitle}</span>
              <span className="text-sm text-slate-700">{option.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
