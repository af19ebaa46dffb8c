import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { KYC_DOCUMENT_TYPES, type KycSubmissionDto } from '../../../shared/contracts/kyc';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { Pager } from '../../components/ui/pager';
import { StatusTabs } from '../../components/ui/status-tabs';
import { KYC_QUEUE_STATUSES, kycQueueQuery, type KycQueueStatus } from '../../features/kyc/api';
import { KycReviewPanel } from '../../features/kyc/components/kyc-review-panel';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/kyc';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';
import { EmailAddress } from '../../components/ui/email-address';

export function meta() {
  return [{ title: staffPageTitle('Identity reviews') }];
}

const STATUSES: Array<{ value: KycQueueStatus; label: string }> = [
  { value: 'pending', label: 'Waiting for review' },
  { value: 'verified', label: 'Approved' },
  { value: 'failed', label: 'Rejected' },
  { value: 'all', label: 'All' },
];

/** A submission's status in the tabs' words, in the "All" tab where several are listed together. */
const STATUS_LABELS = Object.fromEntries(STATUSES.map((option) => [option.value, option.label])) as Record<KycQueueStatus, string>;
const STATUS_TONES: Record<KycSubmissionDto['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  verified: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

function SubmissionStatus({ status }: { status: KycSubmissionDto['status'] }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_TONES[status]}`}>{STATUS_LABELS[status]}</span>;
}

const readParams = (search: URLSearchParams) => ({ status: choiceParam(search, 'status', KYC_QUEUE_STATUSES, 'pending'), page: pageParam(search) });

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminKyc');
  const { status, page } = readParams(searchOf(request));
  return prefetch(kycQueueQuery(status, page));
}

export default function AdminKycPage() {
  const [search, setSearch] = useSearchParams();
  const { status, page } = readParams(search);
  const show = (next: { status: KycQueueStatus; page: number }) => setSearch(listSearch(next, { status: 'pending', page: 1 }));
  const [open, setOpen] = useState<string | null>(null);
  const { data, isPending, error } = useQuery(kycQueueQuery(status, page));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Customers' identity documents: approve, or reject with a reason the customer receives.">Identity reviews</PageTitle>
      <StatusTabs
        label="Submission status"
        options={STATUSES}
        value={status}
        onChange={(value) => {
          show({ status: value, page: 1 });
          setOpen(null);
        }}
      />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No submissions here.</p> : null}
      {data && data.items.length > 0 ? (
        <DataTable
          caption={status === 'pending' ? 'Submissions waiting for review, oldest first' : 'Submissions, newest first'}
          rows={data.items}
          rowKey={(item) => item.id}
          rowProps={() => ({ 'data-testid': 'kyc-row' })}
          detail={(item) =>
            open === item.id ? (
              <div id={`kyc-review-${item.id}`}>
                <KycReviewPanel userId={item.userId} />
              </div>
            ) : null
          }
          columns={[
            { header: 'Customer', kind: 'title', cell: (item) => `${item.customer.firstName} ${item.customer.lastName}` },
            { header: 'Email', cell: (item) => <EmailAddress value={item.customer.email} /> },
            { header: 'Document', cell: (item) => KYC_DOCUMENT_TYPES.find((type) => type.value === item.documentType)?.label },
            { header: 'Submitted', cell: (item) => formatDate(item.createdAt, 'dateTime') },
            // One tab, one status; "All" mixes them, so there each row says its own.
            ...(status === 'all' ? [{ header: 'Status', cell: (item: KycSubmissionDto) => <SubmissionStatus status={item.status} /> }] : []),
            {
              header: 'Actions',
              kind: 'actions',
              headerHidden: true,
              cell: (item) => (
                <>
                  <Link to={paths.adminUser(item.userId)} className="text-sm font-semibold text-brand-800 hover:underline">
                    Customer page
                    <span className="sr-only">
                      {' '}
                      of {item.customer.firstName} {item.customer.lastName}
                    </span>
                  </Link>
                  <Button
                    variant="secondary"
                    aria-expanded={open === item.id}
                    aria-controls={open === item.id ? `kyc-review-${item.id}` : undefined}
                    onClick={() => setOpen(open === item.id ? null : item.id)}
                  >
                    {open === item.id ? 'Close' : 'Review'}
                    <span className="sr-only">
                      {' '}
                      documents of {item.customer.firstName} {item.customer.lastName}
                    </span>
                  </Button>
                </>
              ),
            },
          ]}
        />
      ) : null}
      {data && pages > 1 ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Identity reviews" onPage={(next) => show({ status, page: next })} />
      ) : null}
    </div>
  );
}
