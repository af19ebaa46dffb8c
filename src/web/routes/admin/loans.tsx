import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ZLoanRejectRequest, type LoanDto } from '../../../shared/contracts/loans';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ConfirmInline } from '../../components/ui/confirm-inline';
import { PageTitle } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { Pager } from '../../components/ui/pager';
import { ReasonForm } from '../../components/ui/reason-form';
import { StatusTabs } from '../../components/ui/status-tabs';
import { approveLoan, LOAN_QUEUE_STATUSES, loanQueueQuery, rejectLoan, type LoanQueueStatus } from '../../features/loans/api';
import { LoanStatusBadge, loanLabel, loanProgress, STAFF_STATUS_LABELS } from '../../features/loans/components/loan-format';
import { useAction } from '../../lib/action';
import { useInlineConfirmation } from '../../lib/focus';
import { errorMessage, newIdempotencyKey } from '../../lib/api';
import { formatDate, formatDollars } from '../../lib/format';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/loans';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage, ROLES, useStaffMay } from '../../lib/staff-access';
import { EmailAddress } from '../../components/ui/email-address';

export function meta() {
  return [{ title: staffPageTitle('Loan applications') }];
}

const STATUSES: Array<{ value: LoanQueueStatus; label: string }> = [
  ...(['pending', 'approved', 'rejected', 'withdrawn'] as const).map((value) => ({ value, label: STAFF_STATUS_LABELS[value] })),
  { value: 'all', label: 'All' },
];

const readParams = (search: URLSearchParams) => ({ status: choiceParam(search, 'status', LOAN_QUEUE_STATUSES, 'pending'), page: pageParam(search) });

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminLoans');
  const { status, page } = readParams(searchOf(request));
  return prefetch(loanQueueQuery(status, page));
}

const customerName = (loan: LoanDto) => (loan.customer ? `${loan.customer.firstName} ${loan.customer.lastName}` : 'Customer');

/** The decision's width in the table: its column's least width (21rem) less the cell's padding. */
const decisionWidth = 'md:w-76';

/** Approve (and pay out) or reject with a reason: finance's, on a pending application. */
function LoanActions({ loan }: { loan: LoanDto }) {
  // Support reads the queue (a read of money); deciding is finance's (ADR 022).
  const decides = useStaffMay()(ROLES.finance);
  const [rejecting, setRejecting] = useState(false);
  const confirmation = useInlineConfirmation<HTMLFormElement>({ open: rejecting, onCancel: () => setRejecting(false) });
  // One key per loan shown: a retry after a lost answer replays instead of paying twice.
  const approvalKey = useRef(newIdempotencyKey());
  // A refusal because the customer changed the application refetches the queue: the new terms show.
  const approve = useAction(() => approveLoan(loan, approvalKey.current), { successToast: (message) => message, refresh: 'always' });
  const name = customerName(loan);
  if (loan.status !== 'pending' || !decides) return null;
  // Everything in the decision cell (an error, the buttons, the approval question, the reason
  // form) shares one width, the column's: the question as wide as its words widened the column by
  // about 100 px when it opened (and the reason form's hint by about 10), and the table jumped.
  return (
    <div className={`space-y-2 text-left ${decisionWidth}`}>
      {approve.error ? <Alert tone="error">{approve.error.message}</Alert> : null}
      {rejecting ? (
        <ReasonForm
          label={`Reason for rejecting ${name}'s application`}
          schema={ZLoanRejectRequest}
          send={(reason) => rejectLoan(loan._id, reason)}
          onCancel={confirmation.cancel}
          ref={confirmation.panel}
        />
      ) : (
        // Above the bank's four-eyes limit the payout waits for a second staff member: the question says both.
        <ConfirmInline
          question={`Approve ${name}'s loan of ${formatDollars(loan.loanAmount)}? It is paid into their checking account, at once or, for a large loan, once a second staff member approves.`}
          confirmLabel="Approve and disburse"
          busyLabel="Approving..."
          onConfirm={() => approve.run()}
        >
          {(opener) => (
            <div className="flex flex-wrap gap-2">
              <Button {...opener} disabled={approve.busy}>
                Approve and disburse<span className="sr-only"> {name}&apos;s loan</span>
              </Button>
              <Button ref={confirmation.opener} variant="danger" onClick={() => setRejecting(true)}>
                Reject<span className="sr-only"> {name}&apos;s loan</span>
              </Button>
            </div>
          )}
        </ConfirmInline>
      )}
    </div>
  );
}

/** The applications in the back office's one list (DataTable): a table from 768 px, one card per application below it. */
function LoanList({ loans, decides }: { loans: LoanDto[]; decides: boolean }) {
  return (
    <DataTable
      caption="Loan applications"
      rows={loans}
      rowKey={(loan) => loan._id}
      rowProps={() => ({ 'data-testid': 'loan-row' })}
      columns={[
        {
          header: 'Application',
          kind: 'title',
          cell: (loan) => (
            <>
              <span className="block font-semibold">
                {loanLabel(loan.loanType)}: {formatDollars(loan.loanAmount)} over {loan.loanDuration} months
              </span>
              <span className="block text-sm font-normal text-slate-800">
                {formatDollars(loan.monthlyPayment)} a month at {loan.interestRate.toFixed(2)}%. Purpose: {loan.loanPurpose}
              </span>
            </>
          ),
        },
        {
          header: 'Customer',
          cell: (loan) => (
            <>
              {loan.customer ? (
                <Link to={paths.adminUser(loan.customer.id)} className="block font-medium text-brand-800 hover:underline">
                  {customerName(loan)}
                </Link>
              ) : null}
              {loan.customer ? <EmailAddress value={loan.customer.email} className="block" /> : null}
              <span className="block text-xs text-slate-700">Identity {loan.customer?.verificationStatus}</span>
            </>
          ),
        },
        { header: 'Applied', cell: (loan) => formatDate(loan.createdAt, 'dateTime') },
        {
          header: 'Status',
          cell: (loan) => {
            const progress = loanProgress(loan);
            return (
              <>
                <LoanStatusBadge status={loan.status} labels={STAFF_STATUS_LABELS} />
                {loan.decisionReason ? <span className="mt-1 block text-xs text-slate-800">Reason: {loan.decisionReason}</span> : null}
                {progress ? <span className="mt-1 block text-xs text-slate-800">{progress}</span> : null}
              </>
            );
          },
        },
        ...(decides
          ? [{ header: 'Decision', kind: 'actions' as const, className: 'md:min-w-[21rem]', cell: (loan: LoanDto) => <LoanActions loan={loan} /> }]
          : []),
      ]}
    />
  );
}

export default function AdminLoansPage() {
  const [search, setSearch] = useSearchParams();
  const { status, page } = readParams(search);
  const show = (next: { status: LoanQueueStatus; page: number }) => setSearch(listSearch(next, { status: 'pending', page: 1 }));
  const { data, isPending, error } = useQuery(loanQueueQuery(status, page));
  const decides = useStaffMay()(ROLES.finance);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Approval pays the loan into the customer's checking account as a ledger entry from Loans receivable.">Loan applications</PageTitle>
      <StatusTabs label="Application status" options={STATUSES} value={status} onChange={(value) => show({ status: value, page: 1 })} />
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No applications here.</p> : null}
      {data && data.items.length > 0 ? <LoanList loans={data.items} decides={decides} /> : null}
      {data && pages > 1 ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Loan applications" onPage={(next) => show({ status, page: next })} />
      ) : null}
    </div>
  );
}
