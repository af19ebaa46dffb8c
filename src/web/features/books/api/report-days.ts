import { queryOptions } from '@tanstack/react-query';
import type { ReportDays } from '../../../../shared/contracts/reports';
import { api } from '../../../lib/api';
import { bookKeys } from './keys';

/** GET /admin/reports/days: the first and the newest bank day the end-of-day job has closed. */
export const reportDaysQuery = () =>
  queryOptions({
    queryKey: bookKeys.reportDays(),
    queryFn: async () => (await api.get<ReportDays>('/admin/reports/days')).data,
  });
