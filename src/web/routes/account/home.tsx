import { useQuery } from '@tanstack/react-query';
import {
  ArrowLeftRight,
  Banknote,
  CreditCard,
  Globe2,
  HandCoins,
  History,
  KeyRound,
  LifeBuoy,
  PiggyBank,
  Send,
  Settings,
  ShieldAlert,
  Wallet,
} from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { ButtonLink, Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { contactDetails } from '../../content/contact';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { FactorPrompt } from '../../features/factors/components/factor-prompt';
import { transactionsQuery } from '../../features/ledger/api';
import { TransactionList } from '../../features/ledger/components/transaction-list';
import { formatDollars } from '../../lib/format';
import { currentUserQuery, prefetch, queryClient } from '../../lib/query';
import { useCurrentUser } from '../../lib/current-user';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

const RECENT = { pageSize: 5 };

/** The spec: the dashboard reloads the current user on open (balances may have changed elsewhere). */
export async function clientLoader() {
  await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }).catch(() => undefined);
  return prefetch(transactionsQuery(RECENT), factorSummaryQuery());
}

export function meta() {
  return [{ title: pageTitle('Dashboard') }];
}

const tiles = [
  { to: paths.accountTransfer, label: 'Send Money', hint: 'To another account', icon: Send },
  { to: paths.accountInternalTransfer, label: 'Inter Account', hint: 'Savings ↔ checking', icon: ArrowLeftRight },
  { to: paths.accountDomesticTransfer, label: 'Wire Transfer', hint: 'By wire, at home or abroad', icon: Globe2 },
  { to: paths.accountDeposit, label: 'Deposit', hint: 'Add money', icon: Banknote },
];

const quickLinks = [
  { to: paths.accountLoans, label: 'Loans', icon: HandCoins },
  { to: paths.accountSettings, label: 'Settings', icon: Settings },
  { to: paths.accountTransactions, label: 'History', icon: History },
  { to: paths.accountSupport, label: 'Support', icon: LifeBuoy },
  { to: paths.accountUpdatePassword, label: 'Password', icon: KeyRound },
  { to: paths.accountCards, label: 'Cards', icon: CreditCard },
];

export default function DashboardPage() {
  const user = useCurrentUser();
  const recent = useQuery(transactionsQuery(RECENT));

  const number = user.account.number;
  const copyNumber = async () => {
    try {
      await navigator.clipboard.writeText(number);
      toast.success('Account number copied to clipboard');
    } catch {
      toast.error('Could not copy the account number');
    }
  };

  return (
    <div className="space-y-6">
      <PageTitle subtitle={`Welcome, ${user.firstName}.`}>Dashboard</PageTitle>

      {user.isBlocked ? (
        <section aria-labelledby="blocked-heading" className="rounded-xl border-2 border-red-300 bg-red-50 p-5 text-red-950" data-testid="blocked-notice">
          <h2 id="blocked-heading" className="flex items-center gap-2 text-lg font-semibold">
            <ShieldAlert aria-hidden="true" className="h-5 w-5 shrink-0" />
            Your account is blocked from sending money
          </h2>
          <p className="mt-2">
            Transfers and wires from your accounts are refused until the bank lifts the block. Your balances and history stay available here. Please contact
            support to find out why and what to do:
          </p>
          <ul className="mt-3 space-y-1">
            <li>
              Email{' '}
              <a href={`mailto:${contactDetails.email}`} className="font-semibold underline">
                {contactDetails.email}
              </a>
            </li>
            <li>
              Phone {contactDetails.phone} ({contactDetails.hours})
            </li>
            <li>
              <Link to={paths.accountSupport} className="font-semibold underline">
                Support page
              </Link>
            </li>
          </ul>
        </section>
      ) : null}

      {user.verificationStatus === 'awaiting' ? (
        <Alert tone="warning" className="flex flex-wrap items-center justify-between gap-3">
          <span>Your identity is not verified yet. Verify your account to use every service.</span>
          <ButtonLink to={paths.accountKyc} variant="primary">
            Verify Account
          </ButtonLink>
        </Alert>
      ) : null}

      <FactorPrompt securityPath={paths.accountSecurity} />

      <section aria-label="Balances" className="grid gap-4 md:grid-cols-2">
        <div className="rounded-xl bg-brand-800 p-5 text-white shadow-sm">
          <p className="flex items-center gap-2 text-sm font-medium text-white">
            <PiggyBank aria-hidden="true" className="h-4 w-4" /> Savings balance
          </p>
          <p className="mt-2 text-3xl font-bold tabular-nums" data-testid="savings-balance">
            {formatDollars(user.account.savings)}
          </p>
        </div>
        <div className="rounded-xl bg-slate-900 p-5 text-white shadow-sm">
          <p className="flex items-center gap-2 text-sm font-medium text-white">
            <Wallet aria-hidden="true" className="h-4 w-4" /> Checking balance
          </p>
          <p className="mt-2 text-3xl font-bold tabular-nums" data-testid="checking-balance">
            {formatDollars(user.account.checking)}
          </p>
        </div>
      </section>

      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p className="text-sm text-slate-700">Account number</p>
            <p className="font-mono text-lg font-semibold tracking-wider text-slate-900" data-testid="account-number">
              {number || '—'}
            </p>
          </div>
          <Button variant="secondary" onClick={copyNumber} disabled={!number}>
            Copy account number
          </Button>
        </div>
      </Card>

      <nav aria-label="Actions" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {tiles.map((tile) => (
          <Link
            key={tile.to}
            to={tile.to}
            className="flex flex-col items-start gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            <tile.icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
            <span className="font-semibold text-slate-900">{tile.label}</span>
            <span className="text-sm text-slate-700">{tile.hint}</span>
          </Link>
        ))}
      </nav>

      <Card title="Quick links">
        <ul className="grid grid-cols-3 gap-3 sm:grid-cols-6">
          {quickLinks.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                className="flex flex-col items-center gap-1 rounded-lg p-2 text-sm font-medium text-slate-800 hover:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
              >
                <link.icon aria-hidden="true" className="h-5 w-5 text-brand-700" />
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </Card>

      <Card
        title="Transaction history"
        actions={
          <Link to={paths.accountTransactions} className="text-sm font-semibold text-brand-800 hover:underline">
            See All
          </Link>
        }
      >
        {recent.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : recent.isError ? (
          <Alert tone="error">{recent.error.message}</Alert>
        ) : (
          <TransactionList items={recent.data.items} />
        )}
      </Card>
    </div>
  );
}
