import type { StaffMember } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/** POST /admin/staff/{id}/invitation: a new link for an invited staff member; the earlier one stops working. Answers the message to show. */
export async function resendStaffInvitation(id: string): Promise<string> {
  const answer = await api.post<StaffMember>(`/admin/staff/${encodeURIComponent(id)}/invitation`);
  return answer.message ?? '';
}
