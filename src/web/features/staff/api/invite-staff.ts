import { STAFF_INVITED_MESSAGE, type StaffInvite, type StaffMember } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/** POST /admin/staff: invites a staff member (an emailed link to set a password). Answers the message to show. */
export async function inviteStaff(body: StaffInvite): Promise<{ member: StaffMember; message: string }> {
  const answer = await api.post<StaffMember>('/admin/staff', body);
  return { member: answer.data, message: answer.message ?? STAFF_INVITED_MESSAGE };
}
