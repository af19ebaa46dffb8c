import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { useForm } from 'react-hook-form';
import { useParams, useSearchParams } from 'react-router';
import { ZAdminTransactionUpdate, type AdminTransactionDto } from '../../../shared/contracts/transactions';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form';
import { Pager } from '../../components/ui/pager';
import { adminUserQuery } from '../../features/admin/api';
import { customerTransactionsQuery, updateTransactionDescription } from '../../features/ledger/api';
import { ReversalForm } from '../../features/ledger/components/reversal-form';
import { kindLabel } from '../../features/ledger/format';
import { formatDate, formatDollars } from '../../lib/format';
import { useInlineConfirmation } from '../../lib/focus';
import { contractResolver, useFormAction } from '../../lib/form';
import { listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/user-transactions';
import { staffPageTitle } from '../../lib/title';
import { ROLES, useStaffMay } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('User transactions') }];
}

const PAGE_SIZE = 20;
const pageOf = (page: number) => ({ page, pageSize: PAGE_SIZE });

export function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  return prefetch(adminUserQuery(params.id), customerTransactionsQuery(params.id, pageOf(pageParam(searchOf(request)))));
}

/** The description customers see, edited in place; Escape or Cancel returns to the line's Edit. */
function DescriptionForm({ line, onDone, onCancel, ref }: { line: AdminTransactionDto; onDone: () => void; onCancel: () => void; ref: Ref<HTMLFormElement> }) {
  const form = useForm<{ description: string }>({ resolver: contractResolver(ZAdminTransactionUpdate), defaultValues: { description: line.description } });
  const action = useFormAction(form, ({ description }) => updateTransactionDescription(line._id, description.trim()), {
    successToast: (message) => message,
    onSuccess: onDone,
  });
  return (
    <form ref={ref} onSubmit={action.submit} noValidate className="flex flex-wrap items-end gap-2" aria-label="Edit description">
      <TextField label="Description" maxLength={TEXT_LENGTH_MAX} error={action.error?.message} {...form.register('description')} />
      <Button type="submit" disabled={action.busy}>
        Save
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

export default function UserTransactionsPage() {
  // Every role reads a customer's lines; adding, reversing and correcting them is finance's (ADR 022).
  const books = useStaffMay()(ROLES.finance);
  const { id = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const page = pageParam(search);
  const user = useQuery(adminUserQuery(id));
  const list = useQuery({ ...customerTransactionsQuery(id, pageOf(page)), placeholderData: keepPreviousData });
  const [confirming, setConfirming] = useState<AdminTransactionDto | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  // The line whose Delete or Edit opened the form: focus returns there on Escape or Cancel.
  const [openedFrom, setOpenedFrom] = useState<string | null>(null);
  const reversal = useInlineConfirmation<HTMLFormElement>({ open: confirming !== null, onCancel: () => setConfirming(null) });
  const edit = useInlineConfirmation<HTMLFormElement>({ open: editing !== null, onCancel: () => setEditing(null) });

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
      {books ? (
        <div className="flex flex-wrap gap-3">
          <ButtonLink to={`${paths.adminAddTransaction}?userId=${encodeURIComponent(id)}`}>Add Transaction</ButtonLink>
          <ButtonLink to={paths.adminUserAccount(id)} variant="secondary">
            Edit account
          </ButtonLink>
        </div>
      ) : null}
      {confirming ? (
        <Card>
          {/* 'Delete' is a reversal: a new entry that cancels the line. Escape or Cancel returns to the line's Delete. */}
          <ReversalForm
            key={confirming._id}
            entryId={confirming._id}
            question="Do you really want to delete this transaction?"
            explanation="Nothing is erased: a reversal entry cancels it, and the original stays in the history marked as reversed."
            onDone={() => setConfirming(null)}
            onCancel={reversal.cancel}
            ref={reversal.panel}
          />
        </Card>
      ) : null}
      <div>
        {list.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : list.isError ? (
          <Alert tone="error">{list.error.message}</Alert>
        ) : list.data.items.length === 0 ? (
          <p className="text-slate-700">No transactions yet.</p>
        ) : (
          <div>
            <DataTable
              caption="Transactions"
              rows={list.data.items}
              rowKey={(line) => line._id}
              rowProps={() => ({ 'data-testid': 'admin-transaction-row' })}
              columns={[
                { header: 'S/N', cell: (_line, index) => (page - 1) * PAGE_SIZE + index + 1 },
                { header: 'Amount', className: 'tabular-nums', cell: (line) => formatDollars(line.amount) },
                {
                  header: 'Type',
                  cell: (line) => (
                    <span>
                      {line.transactionType === 'credit' ? 'Credit' : 'Debit'}
                      <span className="block text-xs text-slate-700">
                        {kindLabel(line)} · {line.account}
                      </span>
                    </span>
                  ),
                },
                {
                  header: 'Date',
                  cell: (line) => (
                    <span>
                      {formatDate(line.date)}
                      <span className="block text-xs text-slate-700">Booked {formatDate(line.bookedAt, 'dateTime')}</span>
                    </span>
                  ),
                },
                {
                  header: 'Description',
                  cell: (line) =>
                    editing === line._id ? (
                      <DescriptionForm line={line} onDone={() => setEditing(null)} onCancel={edit.cancel} ref={edit.panel} />
                    ) : (
                      <span className="wrap-anywhere">
                        {line.description}
                        {line.status === 'reversed' ? <span className="ml-2 text-xs font-semibold text-red-800">Reversed</span> : null}
                      </span>
                    ),
                },
                ...(books
                  ? [
                      {
                        header: 'Actions',
                        kind: 'actions' as const,
                        cell: (line: AdminTransactionDto, index: number) => (
                          <>
                            {line.status === 'completed' && line.kind !== 'reversal' ? (
                              <Button
                                ref={line._id === openedFrom ? reversal.opener : undefined}
                                variant="danger"
                                className="px-2 py-1"
                                onClick={() => {
                                  setOpenedFrom(line._id);
                                  setConfirming(line);
                                }}
                              >
                                Delete<span className="sr-only"> transaction {index + 1}</span>
                              </Button>
                            ) : null}
                            <Button
                              ref={line._id === openedFrom ? edit.opener : undefined}
                              variant="ghost"
                              className="px-2 py-1"
                              onClick={() => {
                                setOpenedFrom(line._id);
                                setEditing(line._id);
                              }}
                            >
                              Edit<span className="sr-only"> description of transaction {index + 1}</span>
                            </Button>
                          </>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            <div className="mt-4">
              <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} label="Transactions" onPage={(next) => setSearch(listSearch({ page: next }))} />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
