import { api } from '../../../lib/api';

/** POST /admin/approvals/{id}/approve: the change is made now; answers that it was approved and what it did ('Approved: the credit was posted'). */
export async function approveApproval(id: string): Promise<string> {
  return (await api.post<unknown>(`/admin/approvals/${encodeURIComponent(id)}/approve`, {})).message ?? 'Approved';
}
