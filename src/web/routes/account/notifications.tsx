import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { Pager } from '../../components/ui/pager';
import { StatusTabs } from '../../components/ui/status-tabs';
import { notificationPreferencesQuery } from '../../features/notifications/api/get-preferences';
import { notificationsQuery, type NotificationFilter } from '../../features/notifications/api/list-notifications';
import { readAllNotifications } from '../../features/notifications/api/read-all-notifications';
import { readNotification } from '../../features/notifications/api/read-notification';
import { NotificationList } from '../../features/notifications/components/notification-list';
import { NotificationPreferencesForm } from '../../features/notifications/components/notification-preferences-form';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { choiceParam, listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/notifications';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Notifications') }];
}

const PAGE_SIZE = 20;
const SHOW = ['all', 'unread'] as const;

const filterOf = (search: URLSearchParams): NotificationFilter => ({
  unread: choiceParam(search, 'show', SHOW, 'all') === 'unread',
  page: pageParam(search),
  pageSize: PAGE_SIZE,
});

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return prefetch(notificationsQuery(filterOf(searchOf(request))), notificationPreferencesQuery());
}

function Notifications() {
  const [search, setSearch] = useSearchParams();
  const filter = filterOf(search);
  const list = useQuery({ ...notificationsQuery(filter), placeholderData: keepPreviousData });
  const read = useAction((id: string) => readNotification(id), { errorToast: true });
  const readAll = useAction(() => readAllNotifications(), { successToast: (message) => message, errorToast: true });
  const show = (unread: boolean, page = 1) => setSearch(listSearch({ show: unread ? 'unread' : 'all', page }, { show: 'all', page: 1 }));
  const unread = list.data?.unread ?? 0;

  return (
    <Card
      title="Your notifications"
      actions={
        <Button variant="secondary" disabled={readAll.busy || unread === 0} onClick={() => void readAll.run()}>
          {readAll.busy ? 'Marking...' : 'Mark all as read'}
        </Button>
      }
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <StatusTabs
          label="Show"
          options={[
            { value: 'all', label: 'All' },
            { value: 'unread', label: 'Unread' },
          ]}
          value={filter.unread ? 'unread' : 'all'}
          onChange={(value) => show(value === 'unread')}
        />
        <p className="text-sm text-slate-700" role="status">
          {formatNumber(unread)} unread
        </p>
      </div>
      {list.isPending ? (
        <p className="text-slate-700">Loading…</p>
      ) : list.isError ? (
        <Alert tone="error">{errorMessage(list.error)}</Alert>
      ) : (
        <>
          <NotificationList
            items={list.data.items}
            emptyText={filter.unread ? 'No unread notifications.' : 'No notifications yet.'}
            busy={read.busy}
            onRead={(item) => void read.run(item.id)}
          />
          {list.data.total > PAGE_SIZE ? (
            <div className="mt-4">
              <Pager page={filter.page} pageSize={PAGE_SIZE} total={list.data.total} label="Notifications" onPage={(page) => show(filter.unread, page)} />
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}

function Preferences() {
  const preferences = useQuery(notificationPreferencesQuery());
  return (
    <Card title="Notification preferences">
      <p className="mb-4 text-sm text-slate-700">
        Choose, for each kind, whether you see it here and whether we email you. Emails go to the address on your profile.
      </p>
      {preferences.isPending ? (
        <p className="text-slate-700">Loading…</p>
      ) : preferences.isError ? (
        <Alert tone="error">{errorMessage(preferences.error)}</Alert>
      ) : (
        <NotificationPreferencesForm preferences={preferences.data} />
      )}
    </Card>
  );
}

export default function NotificationsPage() {
  return (
    <div className="space-y-6">
      <PageTitle subtitle="What happened on your accounts, and how you want to hear about it.">Notifications</PageTitle>
      <Notifications />
      <Preferences />
    </div>
  );
}
