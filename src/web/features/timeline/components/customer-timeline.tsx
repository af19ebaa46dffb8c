import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TIMELINE_KIND_LABELS, type TimelineEventDto } from '../../../../shared/contracts/timeline';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api';
import { formatCents, formatDate } from '../../../lib/format';
import { paths } from '../../../paths';
import { timelineQuery } from '../api/get-timeline';
import { useMayOpen } from '../../../lib/staff-access';

function Event({ event }: { event: TimelineEventDto }) {
  // Compliance reads the timeline but not the journal: the entry's title without a link (ADR 022).
  const mayOpen = useMayOpen();
  return (
    <li className="relative border-l-2 border-slate-200 pb-4 pl-4 last:pb-0" data-testid="timeline-event">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-700">
        <span className="font-semibold uppercase tracking-wide">{TIMELINE_KIND_LABELS[event.kind]}</span>
        <time dateTime={event.at}>{formatDate(event.at, 'dateTime')}</time>
      </p>
      <p className="mt-0.5 break-words text-slate-900">
        {event.entryId && mayOpen('adminJournalEntry') ? (
          <Link to={paths.adminJournalEntry(event.entryId)} className="font-medium text-brand-800 hover:underline">
            {event.title}
          </Link>
        ) : (
          <span className={event.kind === 'note' ? 'whitespace-pre-line' : 'font-medium'}>{event.title}</span>
        )}
        {event.amountCents !== null ? <span className="ml-2 tabular-nums text-slate-800">{formatCents(event.amountCents)}</span> : null}
      </p>
      {event.detail ? <p className="break-words whitespace-pre-line text-sm text-slate-700">{event.detail}</p> : null}
      {event.actor ? <p className="break-words text-xs text-slate-700">By {event.actor}</p> : null}
    </li>
  );
}

/** Everything that happened to the customer, newest first: entries, sign-ins, identity decisions, loans, card requests and staff notes. */
export function CustomerTimeline({ userId }: { userId: string }) {
  const timeline = useInfiniteQuery(timelineQuery(userId));
  if (timeline.isPending)
    return (
      <p role="status" className="text-slate-700">
        Loading...
      </p>
    );
  if (timeline.isError) return <Alert tone="error">{errorMessage(timeline.error)}</Alert>;
  const events = timeline.data.pages.flatMap((page) => page.items);
  return (
    <div className="space-y-4">
      {events.length === 0 ? (
        <p className="text-slate-700">Nothing has happened on this customer’s page yet.</p>
      ) : (
        <ol aria-label="Timeline, newest first">
          {events.map((event) => (
            <Event key={`${event.kind}:${event.id}`} event={event} />
          ))}
        </ol>
      )}
      {timeline.hasNextPage ? (
        <Button variant="secondary" disabled={timeline.isFetchingNextPage} onClick={() => void timeline.fetchNextPage()}>
          {timeline.isFetchingNextPage ? 'Loading...' : 'Show older events'}
        </Button>
      ) : null}
    </div>
  );
}
