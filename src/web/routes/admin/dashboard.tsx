import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { dashboardQuery } from '../../features/admin/api';
import { DashboardFigures } from '../../features/admin/components/dashboard-figures';
import { VolumeChart } from '../../features/admin/components/volume-chart';
import { errorMessage } from '../../lib/api';
import { prefetch } from '../../lib/query';
import { staffPageTitle } from '../../lib/title';

export function clientLoader() {
  return prefetch(dashboardQuery());
}

export function meta() {
  return [{ title: staffPageTitle('Dashboard') }];
}

export default function AdminDashboardPage() {
  const { data, isPending, error } = useQuery(dashboardQuery());
  return (
    <div className="space-y-6">
      <PageTitle subtitle="Today at a glance. Each figure links to its list.">Back office overview</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {data ? (
        <>
          <DashboardFigures data={data} />
          <Card title="Transfer volume, last 30 days">
            <VolumeChart days={data.transferVolume} />
          </Card>
        </>
      ) : null}
    </div>
  );
}
