import { Card, PageTitle } from '../../components/ui/card';
import { LoanApplyForm } from '../../features/loans/components/loan-apply-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Apply for a loan') }];
}

export default function LoanApplyPage() {
  return (
    <div className="max-w-3xl">
      <PageTitle subtitle="Loans repayable over one to five years.">Apply for a loan</PageTitle>
      <Card>
        <LoanApplyForm />
      </Card>
    </div>
  );
}
