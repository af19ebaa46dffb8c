import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { Pager } from '../../components/ui/pager';
import { ledgerOverviewQuery, verifyLedgerNow } from '../../features/admin/api';
import { anchorListQuery, anchorNow } from '../../features/anchors/api';
import { AnchorList } from '../../features/anchors/components/anchor-list';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { balanceCents } from '../../features/books/format';
import { prefetch } from '../../lib/query';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage, ROLES, staffMay, useStaffMay } from '../../lib/staff-access';

export async function clientLoader() {
  await requireStaffPage('adminLedger');
  // Support reads the overview; the anchors, verifying and anchoring are finance's (ADR 022).
  return prefetch(ledgerOverviewQuery(), ...((await staffMay(ROLES.finance)) ? [anchorListQuery(1)] : []));
}

export function meta() {
  return [{ title: staffPageTitle('General ledger') }];
}

/**
 * The anchors (ADR 014): the signed heads of both chains, appended to ANCHOR_FILE daily and on
 * "Anchor now". Verification holds both chains against every one of them.
 */
function Anchors() {
  const [page, setPage] = useState(1);
  const { data, isPending, error } = useQuery(anchorListQuery(page));
  const anchoring = useAction(anchorNow, { onSuccess: () => setPage(1) });
  return (
    <Card title="Anchors">
      <p className="text-sm text-slate-700">
        Once a day, and when you press the button, the heads of the ledger chain and the audit chain are signed with the bank’s key and appended as one line to
        the anchor file, outside the database (and mailed, when an anchor address is set). Verification recomputes both chains and checks every anchor: history
        rewritten behind the bank’s back no longer matches the anchors written after it.
      </p>
      <div className="mt-4">
        <Button onClick={() => void anchoring.run()} disabled={anchoring.busy}>
          {anchoring.busy ? 'Anchoring...' : 'Anchor now'}
        </Button>
      </div>
      <div aria-live="polite" className="mt-4">
        {anchoring.error ? <Alert tone="error">{anchoring.error.message}</Alert> : null}
        {anchoring.result ? <Alert tone="success">{anchoring.result.message}</Alert> : null}
      </div>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="mt-4 text-sm text-slate-700">No anchors yet.</p> : null}
      {data && data.items.length > 0 ? (
        <div className="mt-4 space-y-4">
          <AnchorList anchors={data.items} />
          {data.total > data.pageSize ? <Pager page={page} pageSize={data.pageSize} total={data.total} label="Anchors" onPage={setPage} /> : null}
        </div>
      ) : null}
    </Card>
  );
}

/** The bank's side of the books: its own accounts, what it holds for customers, and the hash chain, with a verify button. */
export default function AdminLedgerPage() {
  const books = useStaffMay()(ROLES.finance);
  const { data, isPending, error } = useQuery(ledgerOverviewQuery());
  const verification = useAction(verifyLedgerNow, { refresh: 'always' });

  return (
    <div className="space-y-6">
      <PageTitle subtitle="The bank's own accounts, what it holds for customers, and the hash chain">General ledger</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data ? (
        <>
          <Card title="Balances">
            <DataTable
              caption="Balances of the bank's accounts and of all customer accounts"
              rows={[
                ...data.bankAccounts.map((account) => ({ key: account.kind, name: account.name, balanceCents: account.balanceCents })),
                {
                  key: 'customers',
                  name: `Customer savings and checking (${formatNumber(data.customerAccounts)} accounts)`,
                  balanceCents: data.customerBalancesCents,
                },
              ]}
              rowKey={(row) => row.key}
              columns={[
                { header: 'Account', kind: 'title', rowHeader: true, cell: (row) => row.name },
                { header: 'Balance', align: 'right', className: 'tabular-nums md:whitespace-nowrap', cell: (row) => balanceCents(row.balanceCents) },
              ]}
              footer={['Sum of every account', <span data-testid="ledger-total">{balanceCents(data.totalCents)}</span>]}
            />
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
              Verification recomputes every entry’s hash from the one before it, every running balance and every stored balance, the audit trail’s hash chain,
              and checks every anchor, as <code>npm run ledger:verify</code> does. It reads the whole ledger, and each run is recorded in the audit log.
            </p>
            {books ? (
              <div className="mt-4">
                <Button onClick={() => void verification.run()} disabled={verification.busy}>
                  {verification.busy ? 'Verifying...' : 'Verify the ledger'}
                </Button>
              </div>
            ) : null}
            <div aria-live="polite" className="mt-4">
              {verification.error ? <Alert tone="error">{verification.error.message}</Alert> : null}
              {verification.result ? (
                <Alert tone={verification.result.ok ? 'success' : 'error'}>
                  <span className="whitespace-pre-line break-words">{verification.result.message}</span> (checked{' '}
                  {formatDate(verification.result.checkedAt, 'time')})
                </Alert>
              ) : null}
            </div>
          </Card>
          {books ? <Anchors /> : null}
        </>
      ) : null}
    </div>
  );
}
