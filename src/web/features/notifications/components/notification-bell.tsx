import { useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { unreadCountQuery } from '../api/list-notifications';

/** The bell's accessible name: what a screen reader says for the link. */
export const bellLabel = (unread: number) => `Notifications, ${formatNumber(unread)} unread`;

/**
 * The account header's bell: a link to the notifications page with the unread count. The count is
 * asked again at every page change and when the window comes back into focus (not on a timer: a
 * poll would keep an idle session alive), and after every change the customer makes (useAction
 * refetches what is on screen), so it goes down as items are read.
 */
export function NotificationBell() {
  const { pathname } = useLocation();
  const { data: unread = 0, refetch } = useQuery({ ...unreadCountQuery(), refetchOnWindowFocus: 'always' });
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  return (
    <Link
      to={paths.accountNotifications}
      aria-label={bellLabel(unread)}
      className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      <Bell aria-hidden="true" className="h-6 w-6" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {unread > 99 ? '99+' : formatNumber(unread)}
        </span>
      ) : null}
    </Link>
  );
}
