import { queryOptions } from '@tanstack/react-query';
import type { CryptoDepositOption, CryptoDepositsResponse } from '../../../shared/contracts/deposits';
import { api } from '../../lib/api';

export const depositKeys = {
  all: ['deposits'] as const,
  crypto: () => [...depositKeys.all, 'crypto'] as const,
};

/** The operator's crypto deposit addresses; `demo` while they are the built-in demonstration ones. */
export const cryptoOptionsQuery = () =>
  queryOptions({
    queryKey: depositKeys.crypto(),
    queryFn: async () => {
      const answer = (await api.get<CryptoDepositOption[]>('/deposit/crypto')) as Partial<CryptoDepositsResponse> & { data: CryptoDepositOption[] };
      return { options: answer.data, demo: answer.demo === true };
    },
    staleTime: 5 * 60_000,
  });
