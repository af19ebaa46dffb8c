import { PageTitle } from '../../components/ui/card';
import { DepositMethods } from '../../features/deposits/components/deposit-methods';

export function meta() {
  return [{ title: 'Deposit' }];
}

export default function DepositPage() {
  return (
    <div>
      <PageTitle>Choose Deposit Method</PageTitle>
      <DepositMethods />
    </div>
  );
}
