import type { StaffInvitationAccept } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';

/**
 * POST /auth/admin/invitation: the invited staff member's first password, from the emailed link.
 * Answers the server's message. (Only types come from the contract: this page loads zod on demand.)
 */
export async function acceptInvitation(body: StaffInvitationAccept): Promise<string> {
  const answer = await api.post<null>('/auth/admin/invitation', body, { redirectOn401: false });
  return answer.message ?? 'Your password is set. Sign in to the back office.';
}
