import type { ApprovalPending } from '../../../../shared/contracts/approvals';
import { STAFF_ROLE_CHANGED_MESSAGE, type StaffMember } from '../../../../shared/contracts/staff';
import type { StaffRole } from '../../../../shared/staff-roles';
import { api } from '../../../lib/api';

/**
 * PUT /admin/staff/{id}: a new role (the last active admin keeps theirs: 409); with four eyes it
 * waits for a second admin (202, ADR 023). Answers the message to show.
 */
export async function changeStaffRole(id: string, staffRole: StaffRole): Promise<string> {
  const answer = await api.put<StaffMember | ApprovalPending>(`/admin/staff/${encodeURIComponent(id)}`, { staffRole });
  return answer.message ?? STAFF_ROLE_CHANGED_MESSAGE;
}
