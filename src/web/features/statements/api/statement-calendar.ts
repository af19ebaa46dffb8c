import { queryOptions } from '@tanstack/react-query';
import type { StatementCalendar } from '../../../../shared/contracts/statements';
import { api } from '../../../lib/api';
import { statementKeys } from './keys';

/** GET /statements/calendar: the bank's month and date (its time zone, not the browser's). */
export const statementCalendarQuery = () =>
  queryOptions({
    queryKey: statementKeys.calendar(),
    queryFn: async () => (await api.get<StatementCalendar>('/statements/calendar')).data,
    staleTime: 60_000,
  });
