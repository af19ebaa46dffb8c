import type { ApprovalPending } from '../../../../shared/contracts/approvals';
import { STAFF_INVITED_MESSAGE, type StaffInvite, type StaffMember } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/**
 * POST /admin/staff: invites a staff member (an emailed link to set a password); with four eyes the
 * invitation waits for a second admin (202, ADR 023). Answers the message to show.
 */
export async function inviteStaff(body: StaffInvite): Promise<{ message: string }> {
  const answer = await api.post<StaffMember | ApprovalPending>('/admin/staff', body);
  return { message: answer.message ?? STAFF_INVITED_MESSAGE };
}
