import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { LoanDto } from '../../../../shared/contracts/loans';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmInline } from '../../../components/ui/confirm-inline';
import { useAction } from '../../../lib/action';
import { errorMessage } from '../../../lib/api';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { myLoansQuery, repayLoan, withdrawLoan } from '../api';
import { formatDate, formatDollars } from '../../../lib/format';
import { LoanStatusBadge, loanLabel, loanProgress } from './loan-format';
import { RepaymentSchedule } from './repayment-schedule';
import { paths } from '../../../paths';

function LoanCard({ loan }: { loan: LoanDto }) {
  const withdraw = useAction(() => withdrawLoan(loan._id), { successToast: (message) => message, errorToast: true });
  // One key per installment: a retry after a lost answer replays the payment instead of paying twice.
  const idempotency = useIdempotencyKey();
  const repay = useAction((installment: number) => repayLoan(loan._id, idempotency.keyFor({ loan: loan._id, installment })), {
    successToast: (message) => message,
    errorToast: true,
    onSuccess: () => idempotency.settle(),
    onError: (error) => idempotency.settle(error),
  });
  const next = loan.nextInstallment;
  const progress = loanProgress(loan);
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start gap-3 sm:justify-end">
        <div className="mr-auto">
          <h3 className="text-lg font-semibold text-slate-900">
            {loanLabel(loan.loanType)}: {formatDollars(loan.loanAmount)}
          </h3>
          <p className="text-sm text-slate-700">
            {loan.loanDuration} months at {loan.interestRate.toFixed(2)}% · {formatDollars(loan.monthlyPayment)} a month · applied {formatDate(loan.createdAt)}
          </p>
          <p className="mt-1 text-sm text-slate-800">Purpose: {loan.loanPurpose}</p>
          {loan.status === 'rejected' && loan.decisionReason ? <p className="mt-1 text-sm text-slate-800">Reason: {loan.decisionReason}</p> : null}
          {loan.status === 'approved' && loan.disbursedAt ? (
            <p className="mt-1 text-sm text-slate-800">
              Paid into your checking account on {formatDate(loan.disbursedAt)}. Total to repay: {formatDollars(loan.totalRepayment)}.
            </p>
          ) : null}
          {progress ? (
            <p className="mt-1 text-sm font-medium text-slate-900" data-testid="loan-progress">
              {progress}
            </p>
          ) : null}
        </div>
        {/* The status and the loan's buttons keep to the card's right, beside the loan or on a line
            of their own under it. They are items of the card's one line, not a group of their own,
            so a question too wide to stand beside the loan goes under it alone and the status stays
            up at the right as on every other card (in a group, the status followed the question
            down and stood left of it in the middle of the card). The status stands in a box a
            button's height (h-9), centred on the buttons' line. A question takes its button's
            place at the width of its words (its card's width on a phone): at a fixed 24rem it
            wrapped into a narrow box on a line of its own at 1280 px, with most of the card empty
            beside it. */}
        <div className="flex h-9 items-center">
          <LoanStatusBadge status={loan.status} />
        </div>
        {next ? (
          <ConfirmInline
            question={`Pay installment ${next.number} of ${formatDollars(next.payment)} from your checking account now?`}
            confirmLabel={`Pay ${formatDollars(next.payment)}`}
            busyLabel="Paying..."
            onConfirm={() => repay.run(next.number)}
            className="w-full sm:w-auto"
          >
            {(opener) => (
              <Button {...opener} disabled={repay.busy}>
                {repay.busy ? 'Paying...' : `Pay installment ${next.number}: ${formatDollars(next.payment)}`}
                <span className="sr-only"> of the {loanLabel(loan.loanType).toLowerCase()}</span>
              </Button>
            )}
          </ConfirmInline>
        ) : null}
        {loan.status === 'pending' ? (
          <ConfirmInline
            question="Withdraw this loan application?"
            confirmLabel="Withdraw application"
            busyLabel="Withdrawing..."
            tone="danger"
            onConfirm={() => withdraw.run()}
            className="w-full sm:w-auto"
          >
            {(opener) => (
              <Button {...opener} variant="secondary" disabled={withdraw.busy}>
                Withdraw<span className="sr-only"> the {loanLabel(loan.loanType).toLowerCase()} application</span>
              </Button>
            )}
          </ConfirmInline>
        ) : null}
      </div>
      {loan.schedule ? (
        <details className="mt-4">
          <summary className="cursor-pointer font-medium text-brand-800">Repayment schedule ({loan.schedule.length} payments)</summary>
          <div className="mt-3">
            <RepaymentSchedule loan={loan} />
          </div>
        </details>
      ) : null}
    </li>
  );
}

/** 'Processing Loans' when any exist, else the 'Apply for a loan' link (spec section 2). */
export function LoanList() {
  const { data, isPending, error } = useQuery(myLoansQuery());
  if (isPending) return <p role="status">Loading...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  if (data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
        <p className="text-slate-700">You have no loans yet.</p>
        <Link to={paths.accountLoansApply} className={buttonClass('primary', 'mt-4')}>
          Apply for a loan
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold text-slate-900">Processing Loans</h2>
        <Link to={paths.accountLoansApply} className={buttonClass('secondary')}>
          Apply for another loan
        </Link>
      </div>
      <ul className="space-y-4">
        {data.map((loan) => (
          <LoanCard key={loan._id} loan={loan} />
        ))}
      </ul>
    </div>
  );
}
