import { queryOptions } from '@tanstack/react-query';
import type { RecoveryDto } from '../../../../shared/contracts/recovery';
import { api } from '../../../lib/api';
import { recoveryKeys } from './keys';

/** GET /api/user/admin/{id}/recovery: the customer's newest support recovery, or null. */
export const customerRecoveryQuery = (userId: string) =>
  queryOptions({
    queryKey: recoveryKeys.ofCustomer(userId),
    queryFn: async () => (await api.get<RecoveryDto | null>(`/user/admin/${encodeURIComponent(userId)}/recovery`)).data,
  });

/** POST /api/user/admin/{id}/recovery: start one, recording the identity check. */
export async function startRecovery(userId: string, identityCheck: string): Promise<string> {
  return (await api.post<RecoveryDto>(`/user/admin/${encodeURIComponent(userId)}/recovery`, { identityCheck })).message ?? 'Recovery started.';
}

/** POST /api/user/admin/{id}/recovery/cancel: withdraw a pending one. */
export async function withdrawRecovery(userId: string): Promise<string> {
  return (await api.post<null>(`/user/admin/${encodeURIComponent(userId)}/recovery/cancel`)).message ?? 'The account recovery was cancelled.';
}
