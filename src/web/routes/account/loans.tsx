import { PageTitle } from '../../components/ui/card';
import { LoanList } from '../../features/loans/components/loan-list';

export function meta() {
  return [{ title: 'Loans' }];
}

export default function LoansPage() {
  return (
    <div>
      <PageTitle subtitle="Your loan applications and loans.">Loans</PageTitle>
      <LoanList />
    </div>
  );
}
