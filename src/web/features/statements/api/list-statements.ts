import { queryOptions } from '@tanstack/react-query';
import type { StatementSummary } from '../../../../shared/contracts/statements';
import { api } from '../../../lib/api';
import { statementKeys } from './keys';

/** GET /statements: the closed months with a statement, newest first. */
export const statementsQuery = () =>
  queryOptions({
    queryKey: statementKeys.list(),
    queryFn: async () => (await api.get<StatementSummary[]>('/statements')).data,
  });
