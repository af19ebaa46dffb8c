import { PageTitle } from '../../components/ui/card';
import { LoanList } from '../../features/loans/components/loan-list';
import { myLoansQuery } from '../../features/loans/api';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(myLoansQuery());
}

export function meta() {
  return [{ title: pageTitle('Loans') }];
}

export default function LoansPage() {
  return (
    <div>
      <PageTitle subtitle="Your loan applications and loans.">Loans</PageTitle>
      <LoanList />
    </div>
  );
}
