import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { PageLink } from '../../components/ui/page-link';
import { Pager } from '../../components/ui/pager';
import { paymentRequestsQuery } from '../../features/payment-requests/api/list-payment-requests';
import { RequestForm } from '../../features/payment-requests/components/request-form';
import { ReceivedRequests, SentRequests } from '../../features/payment-requests/components/request-lists';
import { errorMessage } from '../../lib/api';
import { listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/requests';
import { pageTitle } from '../../lib/title';

const PAGE_SIZE = 20;
const pageOf = (search: URLSearchParams) => ({ page: pageParam(search), pageSize: PAGE_SIZE });

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return prefetch(paymentRequestsQuery(pageOf(searchOf(request))));
}

export function meta() {
  return [{ title: pageTitle('Payment requests') }];
}

export default function RequestsPage() {
  const [search, setSearch] = useSearchParams();
  const page = pageOf(search);
  const lists = useQuery({ ...paymentRequestsQuery(page), placeholderData: keepPreviousData });
  const longest = Math.max(lists.data?.received.total ?? 0, lists.data?.sent.total ?? 0);
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Ask another customer for money, and pay or decline what others ask of you.">Payment requests</PageTitle>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Request money">
          <RequestForm />
          <p className="mt-4 text-sm text-slate-700">
            Someone paying you from another bank needs your{' '}
            <PageLink to={paths.accountReceive} className="font-semibold text-brand-800 underline">
              account details
            </PageLink>
            .
          </p>
        </Card>
        <Card title="Asked of you">
          {lists.isPending ? (
            <p className="text-slate-700">Loading…</p>
          ) : lists.isError ? (
            <Alert tone="error">{errorMessage(lists.error)}</Alert>
          ) : (
            <ReceivedRequests items={lists.data.received.items} />
          )}
        </Card>
      </div>
      <Card title="You asked">
        {lists.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : lists.isError ? (
          <Alert tone="error">{errorMessage(lists.error)}</Alert>
        ) : (
          <SentRequests items={lists.data.sent.items} />
        )}
      </Card>
      {longest > PAGE_SIZE ? (
        <Pager
          page={page.page}
          pageSize={PAGE_SIZE}
          total={longest}
          label="Payment requests"
          onPage={(next) => setSearch(listSearch({ page: next }, { page: 1 }))}
        />
      ) : null}
    </div>
  );
}
