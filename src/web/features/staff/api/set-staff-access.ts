import type { StaffMember } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/** POST /admin/staff/{id}/suspend or /reinstate: a staff member's back office access. Answers the message to show. */
export async function setStaffAccess(id: string, change: 'suspend' | 'reinstate'): Promise<string> {
  const answer = await api.post<StaffMember>(`/admin/staff/${encodeURIComponent(id)}/${change}`);
  return answer.message ?? '';
}
