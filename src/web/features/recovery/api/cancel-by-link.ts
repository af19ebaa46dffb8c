import { api } from '../../../lib/api';

// POST /api/account-recovery/cancel: the mailed link's token cancels a pending support recovery.

export async function cancelRecoveryByLink(token: string): Promise<string> {
  return (await api.post<null>('/account-recovery/cancel', { token }, { redirectOn401: false })).message ?? 'The account recovery was cancelled.';
}
