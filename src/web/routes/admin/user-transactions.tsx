import { Breadcrumb } from '../../components/ui/breadcrumb';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { Button, ButtonLink } from '../../components/ui/button';
import { Pager } from '../../components/ui/pager';
import { Card, PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form';
import { adminUserTransactionsQuery, reverseTransaction, staffUserQuery, updateTransactionDescription } from '../../features/ledger/api';
import { kindLabel } from '../../features/ledger/format';
import { formatDate, formatDollars } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/idempotency';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';

export function meta() {
  return [{ title: `User transactions | ${BANK_NAME}` }];
}

const PAGE_SIZE = 20;

export default function UserTransactionsPage() {
  const { id = '' } = useParams();
  const [page, setPage] = useState(1);
  const user = useQuery(staffUserQuery(id));
  const list = useQuery({ ...adminUserTransactionsQuery(id, { page, pageSize: PAGE_SIZE }), placeholderData: keepPreviousData });
  const [confirming, setConfirming] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string; description: string } | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotency = useIdempotencyKey();

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['admin', 'transactions', id] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'user', id] });
  };

  const reverse = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirming) return;
    if (reason.trim().length < 3) return setError('A reason is required (at least 3 characters)');
    setBusy(true);
    setError(null);
    try {
      const message = await reverseTransaction(confirming, reason.trim(), idempotency.keyFor({ confirming, reason: reason.trim() }));
      idempotency.settle();
      toast.success(message);
      setConfirming(null);
      setReason('');
      reload();
    } catch (failure) {
      idempotency.settle(failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const saveDescription = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setBusy(true);
    setError(null);
    try {
      toast.success(await updateTransactionDescription(editing.id, editing.description));
      setEditing(null);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const name = user.data ? `${user.data.firstName} ${user.data.lastName}` : '';
  return (
    <div className="space-y-6">
      <Breadcrumb
        trail={[
          { label: 'Home', to: paths.adminDashboard },
          { label: 'Users', to: paths.adminUsers },
          { label: name || 'Customer', to: paths.adminUser(id) },
          { label: 'Transactions' },
        ]}
      />
      <PageTitle
        subtitle={
          user.data
            ? `Account ${user.data.account.number} · Savings ${formatDollars(user.data.account.savings)} · Checking ${formatDollars(user.data.account.checking)}`
            : undefined
        }
      >
        Transactions{name ? ` of ${name}` : ''}
      </PageTitle>
      <div className="flex flex-wrap gap-3">
        <ButtonLink to={`${paths.adminAddTransaction}?userId=${encodeURIComponent(id)}`}>Add Transaction</ButtonLink>
        <ButtonLink to={paths.adminUserAccount(id)} variant="secondary">
          Edit account
        </ButtonLink>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {confirming ? (
        <Card>
          <form onSubmit={reverse} className="space-y-3" aria-label="Confirm reversal">
            <p className="font-semibold text-slate-900">Do you really want to delete this transaction?</p>
            <p className="text-sm text-slate-700">Nothing is erased: a reversal entry cancels it, and the original stays in the history marked as reversed.</p>
            <TextField label="Reason" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} />
            <div className="flex gap-3">
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? 'Reversing...' : 'Yes, reverse it'}
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setConfirming(null);
                  setError(null);
                }}
                disabled={busy}
              >
                Cancel
              </Button>
            </div>
          </form>
        </Card>
      ) : null}
      <Card>
        {list.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : list.isError ? (
          <Alert tone="error">{list.error.message}</Alert>
        ) : list.data.items.length === 0 ? (
          <p className="text-slate-700">No transactions yet.</p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Transactions</caption>
              <thead className="border-b border-slate-300 text-slate-800">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    S/N
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Type
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Description
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {list.data.items.map((line, index) => (
                  <tr key={line._id} data-testid="admin-transaction-row">
                    <td className="py-2 pr-3">{(page - 1) * PAGE_SIZE + index + 1}</td>
                    <td className="py-2 pr-3 tabular-nums">{formatDollars(line.amount)}</td>
                    <td className="py-2 pr-3">
                      {line.transactionType === 'credit' ? 'Credit' : 'Debit'}
                      <span className="block text-xs text-slate-700">
                        {kindLabel(line)} · {line.account}
                      </span>
                    </td>
                    <td className="py-2 pr-3">
                      {formatDate(line.date)}
                      <span className="block text-xs text-slate-700">Booked {formatDate(line.bookedAt, 'dateTime')}</span>
                    </td>
                    <td className="py-2 pr-3">
                      {editing?.id === line._id ? (
                        <form onSubmit={saveDescription} className="flex flex-wrap items-end gap-2" aria-label="Edit description">
                          <TextField
                            label="Description"
                            value={editing.description}
                            maxLength={500}
                            onChange={(event) => setEditing({ id: line._id, description: event.target.value })}
                          />
                          <Button type="submit" disabled={busy}>
                            Save
                          </Button>
                          <Button variant="ghost" onClick={() => setEditing(null)}>
                            Cancel
                          </Button>
                        </form>
                      ) : (
                        <>
                          {line.description}
                          {line.status === 'reversed' ? <span className="ml-2 text-xs font-semibold text-red-800">Reversed</span> : null}
                        </>
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <div className="flex flex-wrap gap-2">
                        {line.status === 'completed' && line.kind !== 'reversal' ? (
                          <Button
                            variant="danger"
                            className="px-2 py-1"
                            onClick={() => {
                              setConfirming(line._id);
                              setReason('');
                              setError(null);
                            }}
                          >
                            Delete<span className="sr-only"> transaction {index + 1}</span>
                          </Button>
                        ) : null}
                        <Button variant="ghost" className="px-2 py-1" onClick={() => setEditing({ id: line._id, description: line.description })}>
                          Edit<span className="sr-only"> description of transaction {index + 1}</span>
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="mt-4">
              <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} label="Transactions" onPage={setPage} />
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
