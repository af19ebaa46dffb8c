import { queryOptions } from '@tanstack/react-query';
import type { CryptoDepositOption } from '../../../shared/contracts/deposits';
import { api } from '../../lib/api';

export const cryptoOptionsQuery = queryOptions({
  queryKey: ['deposit', 'crypto'],
  queryFn: async () => {
    const answer = (await api.get<CryptoDepositOption[]>('/deposit/crypto')) as { data: CryptoDepositOption[]; demo?: boolean };
    return { options: answer.data, demo: answer.demo === true };
  },
  staleTime: 5 * 60_000,
});
