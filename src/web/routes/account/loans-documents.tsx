import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { myLoansQuery } from '../../features/loans/api';
import { loanLabel } from '../../features/loans/components/loan-format';
import { formatDollars } from '../../lib/format';
import { RepaymentSchedule } from '../../features/loans/components/repayment-schedule';
import { errorMessage } from '../../lib/api';
import { paths } from '../../paths';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(myLoansQuery());
}

export function meta() {
  return [{ title: pageTitle('Loan documents') }];
}

/** The spec leaves this page a placeholder; it holds each approved loan's terms and schedule. */
export default function LoanDocumentsPage() {
  const { data, isPending, error } = useQuery(myLoansQuery());
  const approved = data?.filter((loan) => loan.status === 'approved') ?? [];
  return (
    <div className="space-y-6">
      <PageTitle subtitle="The terms and repayment schedule of each approved loan.">Loan documents</PageTitle>
      {isPending ? <p role="status">Loading...</p> : null}
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {data && approved.length === 0 ? (
        <p className="text-slate-700">
          No approved loans yet.{' '}
          <Link to={paths.accountLoans} className="font-semibold text-brand-800 underline">
            See your applications
          </Link>
        </p>
      ) : null}
      {approved.map((loan) => (
        <Card key={loan._id} title={`${loanLabel(loan.loanType)}: ${formatDollars(loan.loanAmount)}`}>
          <p className="mb-4 text-sm text-slate-800">
            {loan.loanDuration} monthly payments of about {formatDollars(loan.monthlyPayment)} at {loan.interestRate.toFixed(2)}% a year; total{' '}
            {formatDollars(loan.totalRepayment)}. Purpose: {loan.loanPurpose}
          </p>
          <RepaymentSchedule loan={loan} />
        </Card>
      ))}
    </div>
  );
}
