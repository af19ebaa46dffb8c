import { Card, PageTitle } from '../../components/ui/card';
import { PageLink } from '../../components/ui/page-link';
import { ReceiveDetails } from '../../features/payment-requests/components/receive-details';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Receive money') }];
}

export default function ReceivePage() {
  return (
    <div className="max-w-3xl space-y-6">
      <PageTitle subtitle="Give these details to anyone who wants to pay you.">Receive money</PageTitle>
      <Card title="Your account details">
        <ReceiveDetails />
      </Card>
      <Card title="Ask for money">
        <p className="text-slate-800">Someone owes you? Send them a payment request: they see it in their notifications and pay it with one approval.</p>
        <PageLink to={paths.accountRequests} className="mt-3 inline-block font-semibold text-brand-800 underline">
          Request money
        </PageLink>
      </Card>
    </div>
  );
}
