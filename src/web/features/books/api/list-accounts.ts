import { queryOptions } from '@tanstack/react-query';
import type { LedgerAccountDto } from '../../../../shared/contracts/journal';
import { api } from '../../../lib/api';
import { bookKeys, queryString } from './keys';

/** GET /admin/accounts: the bank's own ledger accounts (no owner), or one customer's. */
export const ledgerAccountsQuery = (ownerId = '') =>
  queryOptions({
    queryKey: bookKeys.accounts(ownerId),
    queryFn: async () => (await api.get<LedgerAccountDto[]>(`/admin/accounts${queryString({ ownerId })}`)).data,
    staleTime: 60_000,
  });
