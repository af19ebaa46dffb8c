import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { ledgerOverviewQuery, verifyLedgerNow } from '../../features/admin/api';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { formatCents, formatDate, formatNumber } from '../../lib/format';
import { prefetch } from '../../lib/query';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';

export function clientLoader() {
  return prefetch(ledgerOverviewQuery());
}

export function meta() {
  return [{ title: `General ledger | ${BANK_NAME}` }];
}

/** The bank's side of the books: its own accounts, what it holds for customers, and the hash chain, with a verify button. */
export default function AdminLedgerPage() {
  const { data, isPending, error } = useQuery(ledgerOverviewQuery());
  const verification = useAction(verifyLedgerNow, { refresh: 'always' });

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ label: 'Home', to: paths.adminDashboard }, { label: 'General ledger' }]} />
      <PageTitle subtitle="The bank's own accounts, what it holds for customers, and the hash chain">General ledger</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data ? (
        <>
          <Card title="Balances">
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Balances of the bank's accounts and of all customer accounts</caption>
                <thead className="border-b border-slate-300 text-slate-800">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Account
                    </th>
                    <th scope="col" className="py-2 text-right">
                      Balance
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {data.bankAccounts.map((account) => (
                    <tr key={account.kind}>
                      <th scope="row" className="py-2 pr-3 font-normal">
                        {account.name}
                      </th>
                      <td className="py-2 text-right tabular-nums">{formatCents(account.balanceCents)}</td>
                    </tr>
                  ))}
                  <tr>
                    <th scope="row" className="py-2 pr-3 font-normal">
                      Customer savings and checking ({formatNumber(data.customerAccounts)} accounts)
                    </th>
                    <td className="py-2 text-right tabular-nums">{formatCents(data.customerBalancesCents)}</td>
                  </tr>
                </tbody>
                <tfoot className="border-t-2 border-slate-300 font-semibold text-slate-900">
                  <tr>
                    <th scope="row" className="py-2 pr-3">
                      Sum of every account
                    </th>
                    <td className="py-2 text-right tabular-nums" data-testid="ledger-total">
                      {formatCents(data.totalCents)}
                    </td>
                  </tr>
                </tfoot>
              </table>
            </div>
            <p className="mt-3 text-sm text-slate-700">
              {data.totalCents === 0
                ? 'Every entry moves money between accounts, so the sum of every account is zero: the bank’s accounts mirror what customers hold.'
                : 'The sum of every account should be zero. Run the verification below to find the entry that does not match.'}
            </p>
          </Card>
          <Card title="Hash chain">
            <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
              <dt className="font-medium text-slate-800">Entries</dt>
              <dd>{formatNumber(data.head.seq)}</dd>
              <dt className="font-medium text-slate-800">Newest entry’s hash</dt>
              <dd className="font-mono text-xs">{data.head.hash}</dd>
            </dl>
            <p className="mt-3 text-sm text-slate-700">
              Verification recomputes every entry’s hash from the one before it, every running balance and every stored balance, as{' '}
              <code>npm run ledger:verify</code> does. It reads the whole ledger, and each run is recorded in the audit log.
            </p>
            <div className="mt-4">
              <Button onClick={() => void verification.run()} disabled={verification.busy}>
                {verification.busy ? 'Verifying...' : 'Verify the ledger'}
              </Button>
            </div>
            <div aria-live="polite" className="mt-4">
              {verification.error ? <Alert tone="error">{verification.error.message}</Alert> : null}
              {verification.result ? (
                <Alert tone={verification.result.ok ? 'success' : 'error'}>
                  {verification.result.message} (checked {formatDate(verification.result.checkedAt, 'time')})
                </Alert>
              ) : null}
            </div>
          </Card>
        </>
      ) : null}
    </div>
  );
}
