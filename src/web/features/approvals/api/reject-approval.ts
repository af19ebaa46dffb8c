import { api } from '../../../lib/api';

/** POST /admin/approvals/{id}/reject with the reason; nothing else changes. */
export async function rejectApproval(id: string, reason: string): Promise<string> {
  return (await api.post<unknown>(`/admin/approvals/${encodeURIComponent(id)}/reject`, { reason })).message ?? 'Request rejected';
}
