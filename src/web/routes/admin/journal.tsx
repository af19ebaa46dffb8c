import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/form';
import { Pager, pageParam } from '../../components/ui/pager';
import { adminJournalQuery } from '../../features/ledger/api';
import { kindLabel, signedAmount } from '../../features/ledger/format';
import { formatDate } from '../../lib/format';
import { errorMessage } from '../../lib/api';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';
import { isRealDate } from '../../../shared/dates';

export function meta() {
  return [{ title: `Journal | ${BANK_NAME}` }];
}

const PAGE_SIZE = 20;

interface JournalParams {
  page: number;
  type: '' | 'credit' | 'debit';
  account: '' | 'savings' | 'checking';
  /** Value dates, YYYY-MM-DD or empty. */
  from: string;
  to: string;
}

const EMPTY: JournalParams = { page: 1, type: '', account: '', from: '', to: '' };

// A hand-edited address with a value the API refuses is read as "no filter" rather than an error page.
const realDate = (value: string | null) => (value && isRealDate(value) ? value : '');

function readParams(params: URLSearchParams): JournalParams {
  const type = params.get('type');
  const account = params.get('account');
  return {
    page: pageParam(params),
    type: type === 'credit' || type === 'debit' ? type : '',
    account: account === 'savings' || account === 'checking' ? account : '',
    from: realDate(params.get('from')),
    to: realDate(params.get('to')),
  };
}

export default function AdminJournalPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const [draft, setDraft] = useState(params);
  const [draftError, setDraftError] = useState<string | null>(null);
  useEffect(() => setDraft(params), [params.type, params.account, params.from, params.to]); // eslint-disable-line react-hooks/exhaustive-deps
  const list = useQuery({ ...adminJournalQuery({ ...params, pageSize: PAGE_SIZE }), placeholderData: keepPreviousData });

  function apply(next: JournalParams) {
    const query = new URLSearchParams();
    if (next.type) query.set('type', next.type);
    if (next.account) query.set('account', next.account);
    if (next.from) query.set('from', next.from);
    if (next.to) query.set('to', next.to);
    if (next.page > 1) query.set('page', String(next.page));
    setSearchParams(query);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) return setDraftError('"From" must be on or before "To"');
    setDraftError(null);
    apply({ ...draft, page: 1 });
  }

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ label: 'Home', to: paths.adminDashboard }, { label: 'Journal' }]} />
      <PageTitle subtitle="Every line on every customer account, newest first">Journal</PageTitle>
      <form
        onSubmit={submit}
        aria-label="Filter the journal"
        className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-start"
      >
        <SelectField
          label="Type"
          name="type"
          value={draft.type}
          onChange={(event) => setDraft({ ...draft, type: event.target.value as JournalParams['type'] })}
        >
          <option value="">All types</option>
          <option value="credit">Credits</option>
          <option value="debit">Debits</option>
        </SelectField>
        <SelectField
          label="Account"
          name="account"
          value={draft.account}
          onChange={(event) => setDraft({ ...draft, account: event.target.value as JournalParams['account'] })}
        >
          <option value="">All accounts</option>
          <option value="savings">Savings</option>
          <option value="checking">Checking</option>
        </SelectField>
        <TextField
          label="From"
          name="from"
          type="date"
          hint="Value date"
          value={draft.from}
          onChange={(event) => setDraft({ ...draft, from: event.target.value })}
        />
        <TextField
          label="To"
          name="to"
          type="date"
          hint="Value date"
          value={draft.to}
          error={draftError ?? undefined}
          onChange={(event) => setDraft({ ...draft, to: event.target.value })}
        />
        {/* Level with the inputs, whose labels sit above them (the dates have a hint below). */}
        <div className="flex gap-3 lg:mt-6">
          <Button type="submit">Filter</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraftError(null);
              apply(EMPTY);
            }}
          >
            Reset
          </Button>
        </div>
      </form>
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
                  onPage={(page) => apply({ ...params, page })}
                />
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
