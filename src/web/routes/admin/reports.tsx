import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FileDown } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { ZTrialBalanceExportQuery } from '../../../shared/contracts/reports';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/form';
import { Pager } from '../../components/ui/pager';
import { downloadTrialBalance } from '../../features/books/api/download-trial-balance';
import { trialBalanceQuery } from '../../features/books/api/get-trial-balance';
import { ledgerAccountsQuery } from '../../features/books/api/list-accounts';
import { reportDaysQuery } from '../../features/books/api/report-days';
import { BalanceAtForm } from '../../features/books/components/balance-at-form';
import { TrialBalanceTable } from '../../features/books/components/trial-balance-table';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { contractResolver, fieldError } from '../../lib/form';
import { formatDate, formatNumber } from '../../lib/format';
import { listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch, queryClient } from '../../lib/query';
import type { Route } from './+types/reports';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Reports') }];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface ReportsSearch {
  /** The day shown: the address's, else the newest closed day. */
  date: string;
  page: number;
  /** A customer whose accounts the balance-at form offers (a link from the customer page). */
  owner: string;
  account: string;
}

function readSearch(search: URLSearchParams, lastDay: string | null | undefined): ReportsSearch {
  const asked = search.get('date') ?? '';
  return {
    date: DAY.test(asked) ? asked : (lastDay ?? ''),
    page: pageParam(search),
    owner: search.get('owner') ?? '',
    account: search.get('account') ?? '',
  };
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminReports');
  await prefetch(reportDaysQuery(), ledgerAccountsQuery());
  const days = queryClient.getQueryData(reportDaysQuery().queryKey);
  const state = readSearch(searchOf(request), days?.last);
  if (state.date) await prefetch(trialBalanceQuery(state.date, state.page));
  return null;
}

/** Picks the closed day to show, checked with the export's contract (a YYYY-MM-DD date). */
function DayForm({ date, first, last, onShow }: { date: string; first: string; last: string; onShow: (date: string) => void }) {
  const form = useForm<{ date: string }>({ resolver: contractResolver(ZTrialBalanceExportQuery), defaultValues: { date } });
  useEffect(() => form.reset({ date }), [form, date]);
  const error = form.formState.errors.date;
  return (
    <form onSubmit={form.handleSubmit((values) => onShow(values.date))} noValidate aria-label="Choose a day" className="flex flex-wrap items-end gap-3">
      <TextField label="Bank day" type="date" min={first} max={last} {...fieldError(error)} {...form.register('date')} />
      <Button type="submit">Show</Button>
    </form>
  );
}

function Downloads({ date }: { date: string }) {
  const download = useAction(downloadTrialBalance, { refresh: false });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-3">
        {(['csv', 'pdf'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            disabled={download.busy}
            aria-label={`Download the trial balance of ${formatDate(date)} (${format.toUpperCase()})`}
            onClick={() => void download.run({ date, format })}
          >
            <FileDown aria-hidden="true" className="h-4 w-4" />
            {format.toUpperCase()}
          </Button>
        ))}
      </div>
      <div aria-live="polite">{download.error ? <Alert tone="error">{download.error.message}</Alert> : null}</div>
    </div>
  );
}

function TrialBalance({ date, page, onPage }: { date: string; page: number; onPage: (page: number) => void }) {
  const report = useQuery({ ...trialBalanceQuery(date, page), placeholderData: keepPreviousData });
  if (report.isPending)
    return (
      <p role="status" className="text-slate-700">
        Loading...
      </p>
    );
  if (report.isError) return <Alert tone="error">{errorMessage(report.error)}</Alert>;
  const data = report.data;
  return (
    <div className="space-y-4">
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-800">Bank day</dt>
        <dd>
          {formatDate(data.date)} ({data.timeZone}): bookings from <time dateTime={data.startsAt}>{formatDate(data.startsAt, 'dateTime')}</time> until{' '}
          <time dateTime={data.endsAt}>{formatDate(data.endsAt, 'dateTime')}</time>
        </dd>
        <dt className="font-medium text-slate-800">Entries</dt>
        <dd data-testid="trial-balance-entries">{formatNumber(data.entries)}</dd>
        <dt className="font-medium text-slate-800">Accounts that moved</dt>
        <dd>{formatNumber(data.accountsMoved)}</dd>
        <dt className="font-medium text-slate-800">Stored</dt>
        <dd>
          <time dateTime={data.createdAt}>{formatDate(data.createdAt, 'dateTime')}</time>, by the end-of-day job
        </dd>
      </dl>
      <TrialBalanceTable report={data} />
      {data.total > data.pageSize ? <Pager page={data.page} pageSize={data.pageSize} total={data.total} label="Trial balance" onPage={onPage} /> : null}
    </div>
  );
}

/** The bank's end-of-day reports (issue 15): each closed day's trial balance, its files, and any account's balance at a past date. */
export default function AdminReportsPage() {
  const [search, setSearch] = useSearchParams();
  const days = useQuery(reportDaysQuery());
  const state = readSearch(search, days.data?.last);
  const go = (next: Partial<ReportsSearch>) => {
    const merged = { ...state, ...next };
    setSearch(listSearch({ date: merged.date, page: merged.page, owner: merged.owner, account: merged.account }));
  };
  // The balance-at form may end at yesterday at most; the server says so in the bank's own zone.
  const today = new Date().toISOString().slice(0, 10);

  return (
    <div className="space-y-6">
      <PageTitle subtitle="The trial balance stored at the end of each bank day, and any account's balance at a past date">Reports</PageTitle>
      <Card title="End-of-day trial balance">
        {days.isPending ? (
          <p role="status" className="text-slate-700">
            Loading...
          </p>
        ) : days.isError ? (
          <Alert tone="error">{errorMessage(days.error)}</Alert>
        ) : !days.data.first || !days.data.last ? (
          <p className="text-slate-700">
            No day has been closed yet. After each bank day ends ({days.data.timeZone}), the end-of-day job stores its trial balance here.
          </p>
        ) : (
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              Closed days: {formatDate(days.data.first)} to {formatDate(days.data.last)} ({days.data.timeZone}). Each line reads opening − debits + credits =
              closing; with the accounts that did not move, opening and closing each total zero, and debits equal credits.
            </p>
            <div className="flex flex-wrap items-end justify-between gap-4">
              <DayForm date={state.date} first={days.data.first} last={days.data.last} onShow={(date) => go({ date, page: 1 })} />
              <Downloads date={state.date} />
            </div>
            <TrialBalance date={state.date} page={state.page} onPage={(page) => go({ page })} />
          </div>
        )}
      </Card>
      <Card title="Balance at a date">
        <p className="mb-4 text-sm text-slate-700">
          An account’s balance at the end of a past bank day, from its postings by booking time (a back-dated entry counts from when it was booked).
        </p>
        <BalanceAtForm key={`${state.owner}:${state.account}`} ownerId={state.owner} initialAccountId={state.account} today={today} />
      </Card>
    </div>
  );
}
