import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { JOB_STATE_LABELS, type JobDto } from '../../../shared/contracts/queues';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { DataTable, type DataColumn } from '../../components/ui/data-table';
import { Pager } from '../../components/ui/pager';
import { StatusTabs } from '../../components/ui/status-tabs';
import { JOB_QUEUE_STATES, jobListQuery, retryJob, type JobQueueState } from '../../features/jobs/api';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/jobs';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Background jobs') }];
}

/** What each task does, as staff read it (the names are the job registry's, src/server/jobs/registry.ts). */
const TASK_LABELS: Record<string, string> = {
  send_mail: 'Send an email',
  purge_expired: 'Purge expired records',
  anchor_daily: 'Anchor the ledger and audit chains',
  notify_ledger: 'Notify customers of money in and out',
};

const readParams = (search: URLSearchParams) => ({ state: choiceParam(search, 'state', JOB_QUEUE_STATES, 'all'), page: pageParam(search) });

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminJobs');
  const { state, page } = readParams(searchOf(request));
  return prefetch(jobListQuery(state, page));
}

function RetryButton({ job }: { job: JobDto }) {
  const retry = useAction(() => retryJob(job.id), { successToast: (message) => message, errorToast: true });
  return (
    <Button onClick={() => void retry.run()} disabled={retry.busy}>
      {retry.busy ? 'Retrying...' : 'Retry'}
      <span className="sr-only"> job {job.id}</span>
    </Button>
  );
}

const JOB_COLUMNS: Array<DataColumn<JobDto>> = [
  { header: 'Job', className: 'tabular-nums', cell: (job) => job.id },
  { header: 'Task', cell: (job) => TASK_LABELS[job.task] ?? job.task },
  { header: 'State', cell: (job) => JOB_STATE_LABELS[job.state] },
  { header: 'Attempts', className: 'tabular-nums', cell: (job) => `${job.attempts} of ${job.maxAttempts}` },
  { header: 'Runs at', cell: (job) => <time dateTime={job.runAt}>{formatDate(job.runAt, 'dateTime')}</time> },
  { header: 'Last error', className: 'md:max-w-md text-slate-800', cell: (job) => job.lastError ?? <span className="text-slate-700">None</span> },
  {
    header: 'Action',
    kind: 'actions',
    cell: (job) => (job.state === 'failed' ? <RetryButton job={job} /> : <span className="text-sm text-slate-700">No action</span>),
  },
];

/** The background jobs: mail waiting to go out, what runs now, and what failed for good (with the error), to retry. */
export default function AdminJobsPage() {
  const [search, setSearch] = useSearchParams();
  const { state, page } = readParams(search);
  const show = (next: { state: JobQueueState; page: number }) => setSearch(listSearch(next, { state: 'all', page: 1 }));
  const { data, isPending, error } = useQuery(jobListQuery(state, page));
  const counts = data?.counts;
  const options = JOB_QUEUE_STATES.map((value) => ({
    value,
    label: value === 'all' ? 'All' : `${JOB_STATE_LABELS[value]}${counts ? ` (${formatNumber(counts[value])})` : ''}`,
  }));
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Emails waiting to go out, scheduled purges, and jobs that failed: retry a failed job once its cause is fixed.">
        Background jobs
      </PageTitle>
      <StatusTabs label="Job state" options={options} value={state} onChange={(value) => show({ state: value, page: 1 })} />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No jobs here.</p> : null}
      {data && data.items.length > 0 ? <DataTable caption="Background jobs" columns={JOB_COLUMNS} rows={data.items} rowKey={(job) => String(job.id)} /> : null}
      {data && data.total > data.pageSize ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Background jobs" onPage={(next) => show({ state, page: next })} />
      ) : null}
    </div>
  );
}
