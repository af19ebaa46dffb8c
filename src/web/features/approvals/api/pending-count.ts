import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { approvalKeys } from './keys';

/** GET /admin/approvals/count: the pending requests, for the back office sidebar's badge (refreshed every minute). */
export const pendingApprovalsQuery = () =>
  queryOptions({
    queryKey: approvalKeys.count(),
    queryFn: async () => (await api.get<{ pending: number }>('/admin/approvals/count')).data.pending,
    refetchInterval: 60_000,
  });
