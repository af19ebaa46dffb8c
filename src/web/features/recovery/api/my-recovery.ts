import { queryOptions } from '@tanstack/react-query';
import type { MyRecoveryDto } from '../../../../shared/contracts/recovery';
import { api } from '../../../lib/api';
import { recoveryKeys } from './keys';

/** GET /api/auth/recovery: a pending support recovery of the signed-in customer's account, or null. */
export const myRecoveryQuery = () =>
  queryOptions({
    queryKey: recoveryKeys.mine(),
    queryFn: async () => (await api.get<MyRecoveryDto | null>('/auth/recovery')).data,
  });

/** POST /api/auth/recovery/cancel: it was not me. */
export async function cancelMyRecovery(): Promise<string> {
  return (await api.post<null>('/auth/recovery/cancel')).message ?? 'The account recovery was cancelled.';
}
