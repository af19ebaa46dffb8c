import { Card, PageTitle } from '../../components/ui/card';
import { TransferForm } from '../../features/transfers/components/transfer-form';
import { BANK_NAME } from '../../lib/settings';

export function meta() {
  return [{ title: `Money Transfer | ${BANK_NAME}` }];
}

export default function Page() {
  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Send money to another customer or to an account at another US bank.">Money Transfer</PageTitle>
      <Card>
        <TransferForm />
      </Card>
    </div>
  );
}
