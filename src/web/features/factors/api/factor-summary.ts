import { queryOptions } from '@tanstack/react-query';
import type { FactorSummary } from '../../../../shared/contracts/factors';
import { api } from '../../../lib/api';
import { factorKeys } from './keys';

/** GET /api/auth/factors: what the user has, and whether a factor must be set up first (staff). */
export const factorSummaryQuery = () =>
  queryOptions({
    queryKey: factorKeys.summary(),
    queryFn: async () => (await api.get<FactorSummary>('/auth/factors')).data,
  });
