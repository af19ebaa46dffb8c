import { PageTitle } from '../../components/ui/card';
import { CardRequests } from '../../features/cards/components/card-requests';
import { myCardRequestsQuery } from '../../features/cards/api';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(myCardRequestsQuery());
}

export function meta() {
  return [{ title: pageTitle('Cards') }];
}

export default function CardsPage() {
  return (
    <div>
      <PageTitle subtitle="Request a debit or credit card; we review every request and tell you its status.">Cards</PageTitle>
      <CardRequests />
    </div>
  );
}
