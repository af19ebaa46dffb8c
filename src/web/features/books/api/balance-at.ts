import type { BalanceAtDto } from '../../../../shared/contracts/journal';
import { api } from '../../../lib/api';

/** GET /admin/accounts/{id}/balance?date=: an account's balance at the end of a past bank day. */
export async function fetchBalanceAt(input: { accountId: string; date: string }): Promise<BalanceAtDto> {
  return (await api.get<BalanceAtDto>(`/admin/accounts/${encodeURIComponent(input.accountId)}/balance?date=${encodeURIComponent(input.date)}`)).data;
}
