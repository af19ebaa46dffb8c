import { Card, PageTitle } from '../../components/ui/card';
import { BulkPaymentFlow } from '../../features/bulk-payments/components/bulk-payment-flow';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Bulk Payments') }];
}

export default function BulkPaymentsPage() {
  return (
    <div className="max-w-5xl">
      <PageTitle subtitle="Pay up to 1,000 people at this bank at once (staff salaries, suppliers) from one CSV file, approved with one IMS code.">
        Bulk Payments
      </PageTitle>
      <Card>
        <BulkPaymentFlow />
      </Card>
    </div>
  );
}
