import { queryOptions } from '@tanstack/react-query';
import type { NotificationPage } from '../../../../shared/contracts/notifications';
import { api } from '../../../lib/api';
import { notificationKeys } from './keys';

// GET /api/notifications?unread=true|false&page=&pageSize=

export interface NotificationFilter {
  unread: boolean;
  page: number;
  pageSize: number;
}

const search = (filter: NotificationFilter) =>
  new URLSearchParams({ unread: String(filter.unread), page: String(filter.page), pageSize: String(filter.pageSize) });

/** One page of the customer's notifications, newest first, with the unread count. */
export const notificationsQuery = (filter: NotificationFilter) =>
  queryOptions({
    queryKey: notificationKeys.list(filter),
    queryFn: async () => (await api.get<NotificationPage>(`/notifications?${search(filter).toString()}`)).data,
  });

/**
 * The bell's count: the list call for one unread item, read for its `unread`. Always fetched
 * afresh (a page change or the window's focus asks again): a background poll would keep the
 * session alive past its idle timeout (ADR 013).
 */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: notificationKeys.unread(),
    queryFn: async () => (await api.get<NotificationPage>('/notifications?unread=true&pageSize=1')).data.unread,
    staleTime: 0,
  });
