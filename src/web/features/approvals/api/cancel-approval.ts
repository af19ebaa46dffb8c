import { api } from '../../../lib/api';

/** POST /admin/approvals/{id}/cancel: the requester withdraws their own request. */
export async function cancelApproval(id: string): Promise<string> {
  return (await api.post<unknown>(`/admin/approvals/${encodeURIComponent(id)}/cancel`, {})).message ?? 'Request cancelled';
}
