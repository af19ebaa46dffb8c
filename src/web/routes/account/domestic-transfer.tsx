import { Card, PageTitle } from '../../components/ui/card';
import { WireForm } from '../../features/transfers/components/wire-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Wire Transfer') }];
}

export default function Page() {
  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Send money by wire to a bank at home or abroad.">Wire Transfer</PageTitle>
      <Card>
        <WireForm />
      </Card>
    </div>
  );
}
