import { INVITATION_ACCEPTED_MESSAGE, type StaffInvitationAccept } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/** POST /auth/admin/invitation: the invited staff member's first password, from the emailed link. Answers the message to show. */
export async function acceptInvitation(body: StaffInvitationAccept): Promise<string> {
  const answer = await api.post<null>('/auth/admin/invitation', body, { redirectOn401: false });
  return answer.message ?? INVITATION_ACCEPTED_MESSAGE;
}
