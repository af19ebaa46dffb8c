import { Link } from 'react-router';
import type { NotificationDto } from '../../../../shared/contracts/notifications';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';

/**
 * The customer's notifications, newest first: unread ones marked (in words for screen readers,
 * by weight and a dot for the eye), each with its page and a "Mark as read" button.
 */
export function NotificationList({
  items,
  emptyText,
  busy,
  onRead,
}: {
  items: NotificationDto[];
  emptyText: string;
  busy: boolean;
  onRead: (item: NotificationDto) => void;
}) {
  if (items.length === 0) return <p className="text-slate-700">{emptyText}</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Notifications">
      {items.map((item) => {
        const unread = item.readAt === null;
        return (
          <li key={item.id} className="flex flex-wrap items-start justify-between gap-3 py-4" data-testid="notification">
            <div className="flex min-w-0 flex-1 basis-64 gap-3">
              <span aria-hidden="true" className={`mt-2 h-2.5 w-2.5 shrink-0 rounded-full ${unread ? 'bg-brand-700' : 'bg-transparent'}`} />
              <div className="min-w-0">
                <p className={`text-slate-900 wrap-anywhere ${unread ? 'font-semibold' : 'font-medium'}`}>
                  {unread ? <span className="sr-only">Unread: </span> : null}
                  {item.title}
                </p>
                <p className="mt-0.5 text-sm text-slate-700 wrap-anywhere">{item.body}</p>
                <p className="mt-1 text-xs text-slate-600">
                  {formatDate(item.createdAt, 'dateTime')}
                  {item.link ? (
                    <>
                      {' · '}
                      <Link to={item.link} aria-label={`View: ${item.title}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
                        View
                      </Link>
                    </>
                  ) : null}
                </p>
              </div>
            </div>
            {unread ? (
              <Button variant="secondary" className="px-3 py-1.5" disabled={busy} aria-label={`Mark as read: ${item.title}`} onClick={() => onRead(item)}>
                Mark as read
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
