import { Card, PageTitle } from '../../components/ui/card';
import { InternalTransferForm } from '../../features/transfers/components/internal-transfer-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Internal Transfer') }];
}

export default function Page() {
  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Move money between your savings and checking accounts.">Internal Transfer</PageTitle>
      <Card>
        <InternalTransferForm />
      </Card>
    </div>
  );
}
