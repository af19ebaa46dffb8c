import { infiniteQueryOptions } from '@tanstack/react-query';
import type { TimelinePage } from '../../../../shared/contracts/timeline';
import { api } from '../../../lib/api';
import { timelineKeys } from './keys';

export const TIMELINE_PAGE_SIZE = 10;

/** GET /user/admin/{id}/timeline: the customer's events, newest first, each page continuing `before` the last. */
export const timelineQuery = (userId: string) =>
  infiniteQueryOptions({
    queryKey: timelineKeys.customer(userId),
    initialPageParam: '',
    queryFn: async ({ pageParam }) =>
      (
        await api.get<TimelinePage>(
          `/user/admin/${encodeURIComponent(userId)}/timeline?pageSize=${TIMELINE_PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`,
        )
      ).data,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
