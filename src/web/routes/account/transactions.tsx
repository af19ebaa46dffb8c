import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { Pager } from '../../components/ui/pager';
import { SavePayee } from '../../features/beneficiaries/components/save-payee';
import { monthlyTotalsQuery, transactionsQuery } from '../../features/ledger/api';
import { readTransactionFilter, toTransactionFilter, transactionFilterSearch } from '../../features/ledger/filter';
import { MonthlyChart } from '../../features/ledger/components/monthly-chart';
import { TransactionFilterForm } from '../../features/ledger/components/transaction-filter-form';
import { TransactionTable } from '../../features/ledger/components/transaction-table';
import { TransferResult } from '../../features/transfers/components/transfer-result';
import { errorMessage } from '../../lib/api';
import { searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/transactions';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Transactions') }];
}

const PAGE_SIZE = 20;

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  const filter = readTransactionFilter(searchOf(request));
  return prefetch(transactionsQuery(toTransactionFilter(filter, PAGE_SIZE)), monthlyTotalsQuery(filter.account));
}

function MonthlyTotals({ account }: { account: '' | 'savings' | 'checking' }) {
  const totals = useQuery({ ...monthlyTotalsQuery(account), placeholderData: keepPreviousData });
  const scope = account === '' ? 'both accounts' : `${account} account`;
  return (
    <Card title="Money in and out">
      <p className="mb-3 text-sm text-slate-700">
        {account === '' ? 'Both accounts, the last 12 months; moves between your own accounts are left out.' : `Your ${scope}, the last 12 months.`}
      </p>
      {totals.isPending ? (
        <p className="text-slate-700">Loading…</p>
      ) : totals.isError ? (
        <Alert tone="error">{errorMessage(totals.error)}</Alert>
      ) : (
        <MonthlyChart months={totals.data.months} scope={scope} />
      )}
    </Card>
  );
}

export default function TransactionsPage() {
  const [search, setSearch] = useSearchParams();
  const filter = readTransactionFilter(search);
  const list = useQuery({ ...transactionsQuery(toTransactionFilter(filter, PAGE_SIZE)), placeholderData: keepPreviousData });

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Every movement on your savings and checking accounts, newest first.">Transactions</PageTitle>
      <TransferResult>{(payee) => <SavePayee payee={payee} />}</TransferResult>
      <Card>
        <TransactionFilterForm
          label="Filter transactions"
          value={filter}
          allTypes="Debits and credits"
          search
          onApply={(next) => setSearch(transactionFilterSearch({ ...next, page: 1 }))}
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_repeat(3,minmax(0,1fr))_auto] lg:items-start"
        />
      </Card>
      <Card>
        {list.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : list.isError ? (
          <Alert tone="error">{list.error.message}</Alert>
        ) : (
          <>
            <TransactionTable items={list.data.items} emptyText="No transactions match." />
            <div className="mt-4">
              <Pager
                page={filter.page}
                pageSize={PAGE_SIZE}
                total={list.data.total}
                label="Transactions"
                onPage={(page) => setSearch(transactionFilterSearch({ ...filter, page }))}
              />
            </div>
          </>
        )}
      </Card>
      <MonthlyTotals account={filter.account} />
    </div>
  );
}
