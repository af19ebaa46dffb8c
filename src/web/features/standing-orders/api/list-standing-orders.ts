import { queryOptions } from '@tanstack/react-query';
import type { StandingOrderDto } from '../../../../shared/contracts/standing-orders';
import { api } from '../../../lib/api';
import { standingOrderKeys } from './keys';

/** GET /standing-orders: active ones first (next run date), then finished and cancelled ones. */
export const standingOrdersQuery = () =>
  queryOptions({
    queryKey: standingOrderKeys.list(),
    queryFn: async () => (await api.get<StandingOrderDto[]>('/standing-orders')).data,
  });
