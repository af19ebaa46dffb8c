import { PageTitle } from '../../components/ui/card';
import { DepositMethods } from '../../features/deposits/components/deposit-methods';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Deposit') }];
}

export default function DepositPage() {
  return (
    <div>
      <PageTitle>Choose Deposit Method</PageTitle>
      <DepositMethods />
    </div>
  );
}
