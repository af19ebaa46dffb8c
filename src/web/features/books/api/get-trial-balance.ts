import { queryOptions } from '@tanstack/react-query';
import type { TrialBalanceDto } from '../../../../shared/contracts/reports';
import { api } from '../../../lib/api';
import { bookKeys, queryString } from './keys';

export const TRIAL_BALANCE_PAGE_SIZE = 50;

/** GET /admin/reports/trial-balance: a closed day's stored trial balance, one page of its lines. */
export const trialBalanceQuery = (date: string, page: number) =>
  queryOptions({
    queryKey: bookKeys.trialBalance(date, page),
    queryFn: async () => (await api.get<TrialBalanceDto>(`/admin/reports/trial-balance${queryString({ date, page, pageSize: TRIAL_BALANCE_PAGE_SIZE })}`)).data,
  });
