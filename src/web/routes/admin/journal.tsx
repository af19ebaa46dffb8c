import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Card, PageTitle } from '../../components/ui/card';
import { Pager } from '../../components/ui/pager';
import { journalQuery } from '../../features/ledger/api';
import { readTransactionFilter, toTransactionFilter, transactionFilterSearch } from '../../features/ledger/filter';
import { TransactionFilterForm } from '../../features/ledger/components/transaction-filter-form';
import { kindLabel, signedAmount } from '../../features/ledger/format';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';
import type { Route } from './+types/journal';

export function meta() {
  return [{ title: `Journal | ${BANK_NAME}` }];
}

const PAGE_SIZE = 20;

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return prefetch(journalQuery(toTransactionFilter(readTransactionFilter(searchOf(request)), PAGE_SIZE)));
}

export default function AdminJournalPage() {
  const [search, setSearch] = useSearchParams();
  const params = readTransactionFilter(search);
  const list = useQuery({ ...journalQuery(toTransactionFilter(params, PAGE_SIZE)), placeholderData: keepPreviousData });

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ label: 'Home', to: paths.adminDashboard }, { label: 'Journal' }]} />
      <PageTitle subtitle="Every line on every customer account, newest first">Journal</PageTitle>
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <TransactionFilterForm
          label="Filter the journal"
          value={params}
          allTypes="All types"
          dateHint="Value date"
          onApply={(next) => setSearch(transactionFilterSearch({ ...next, page: 1 }))}
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-start"
        />
      </div>
      <Card>
        {list.isPending ? (
          <p role="status" className="text-slate-700">
            Loading...
          </p>
        ) : list.isError ? (
          <Alert tone="error">{errorMessage(list.error)}</Alert>
        ) : (
          <>
            {list.data.items.length === 0 ? (
              <p role="status" className="text-slate-700">
                {list.data.total === 0 ? 'No entries match these filters.' : 'No entries on this page.'}
              </p>
            ) : (
              <div className="relative overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Lines on customer accounts, newest first</caption>
                  <thead className="border-b border-slate-300 text-slate-800">
                    <tr>
                      {['S/N', 'Booked', 'Customer', 'Type', 'Description'].map((heading) => (
                        <th key={heading} scope="col" className="py-2 pr-3">
                          {heading}
                        </th>
                      ))}
                      <th scope="col" className="py-2 pr-3 text-right">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {list.data.items.map((line, index) => (
                      <tr key={line._id} className="align-top" data-testid="journal-row">
                        <td className="py-2 pr-3">{(list.data.page - 1) * list.data.pageSize + index + 1}</td>
                        <td className="py-2 pr-3 whitespace-nowrap">
                          {formatDate(line.bookedAt, 'dateTime')}
                          <span className="block text-xs text-slate-700">Value {formatDate(line.date)}</span>
                        </td>
                        <td className="py-2 pr-3">
                          <Link to={paths.adminUserTransactions(line.userId)} className="font-medium text-brand-800 hover:underline">
                            {line.customerName || 'Customer'}
                          </Link>
                          <span className="block text-xs text-slate-700">
                            {line.account === 'savings' ? 'Savings' : 'Checking'} · {line.accountNumber}
                          </span>
                        </td>
                        <td className="py-2 pr-3">
                          {line.transactionType === 'credit' ? 'Credit' : 'Debit'}
                          <span className="block text-xs text-slate-700">{kindLabel(line)}</span>
                        </td>
                        <td className="py-2 pr-3">
                          {line.description}
                          {line.status === 'reversed' ? <span className="ml-2 text-xs font-semibold text-red-800">Reversed</span> : null}
                        </td>
                        <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">{signedAmount(line)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {list.data.total > 0 ? (
              <div className="mt-4">
                <Pager
                  page={list.data.page}
                  pageSize={list.data.pageSize}
                  total={list.data.total}
                  label="Journal"
                  onPage={(page) => setSearch(transactionFilterSearch({ ...params, page }))}
                />
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
