import { Card, PageTitle } from '../../components/ui/card';
import { TransferForm } from '../../features/transfers/components/transfer-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Money Transfer') }];
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
