import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { cancelStandingOrder } from '../../features/standing-orders/api/cancel-standing-order';
import { payeesQuery } from '../../features/standing-orders/api/list-payees';
import { standingOrdersQuery } from '../../features/standing-orders/api/list-standing-orders';
import { StandingOrderForm } from '../../features/standing-orders/components/standing-order-form';
import { StandingOrderList } from '../../features/standing-orders/components/standing-order-list';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(standingOrdersQuery(), payeesQuery());
}

export function meta() {
  return [{ title: pageTitle('Standing orders') }];
}

export default function StandingOrdersPage() {
  const orders = useQuery(standingOrdersQuery());
  const payees = useQuery(payeesQuery());
  const cancel = useAction((id: string) => cancelStandingOrder(id), { successToast: (answer) => answer.message, errorToast: true });
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Regular payments and payments on a date you choose, approved once with an IMS code and paid by the bank on each date.">
        Standing orders
      </PageTitle>
      <Card title="Your standing orders">
        {orders.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : orders.isError ? (
          <Alert tone="error">{errorMessage(orders.error)}</Alert>
        ) : (
          <StandingOrderList orders={orders.data} busy={cancel.busy} onCancel={(order) => void cancel.run(order.id)} />
        )}
      </Card>
      <Card title="New standing order">
        <StandingOrderForm payees={payees.data ?? []} />
      </Card>
    </div>
  );
}
