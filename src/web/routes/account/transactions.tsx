import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { Pager } from '../../components/ui/pager';
import { SelectField, TextField } from '../../components/ui/form';
import { transactionsQuery, type TransactionFilter } from '../../features/ledger/api';
import { TransactionList } from '../../features/ledger/components/transaction-list';
import { TransferResult } from '../../features/transfers/components/transfer-result';
import { BANK_NAME } from '../../lib/settings';

export function meta() {
  return [{ title: `Transactions | ${BANK_NAME}` }];
}

const PAGE_SIZE = 20;

export default function TransactionsPage() {
  const [filter, setFilter] = useState<TransactionFilter>({ page: 1, pageSize: PAGE_SIZE, account: '', type: '', from: '', to: '' });
  const list = useQuery({ ...transactionsQuery(filter), placeholderData: keepPreviousData });
  const set = (change: Partial<TransactionFilter>) => setFilter((current) => ({ ...current, ...change, page: change.page ?? 1 }));

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Every movement on your savings and checking accounts, newest first.">Transactions</PageTitle>
      <TransferResult />
      <Card>
        <form className="grid gap-4 sm:grid-cols-4" aria-label="Filter transactions" onSubmit={(event) => event.preventDefault()}>
          <SelectField label="Account" value={filter.account} onChange={(event) => set({ account: event.target.value as TransactionFilter['account'] })}>
            <option value="">All accounts</option>
            <option value="savings">Savings</option>
            <option value="checking">Checking</option>
          </SelectField>
          <SelectField label="Type" value={filter.type} onChange={(event) => set({ type: event.target.value as TransactionFilter['type'] })}>
            <option value="">Debits and credits</option>
            <option value="credit">Credits</option>
            <option value="debit">Debits</option>
          </SelectField>
          <TextField label="From" type="date" value={filter.from} onChange={(event) => set({ from: event.target.value })} />
          <TextField label="To" type="date" value={filter.to} onChange={(event) => set({ to: event.target.value })} />
        </form>
      </Card>
      <Card>
        {list.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : list.isError ? (
          <Alert tone="error">{list.error.message}</Alert>
        ) : (
          <>
            <TransactionList items={list.data.items} emptyText="No transactions match." />
            <div className="mt-4">
              <Pager page={filter.page ?? 1} pageSize={PAGE_SIZE} total={list.data.total} label="Transactions" onPage={(page) => set({ page })} />
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
