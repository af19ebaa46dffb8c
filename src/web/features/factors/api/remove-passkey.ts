import { api } from '../../../lib/api';

/** DELETE /api/auth/passkeys/{id}. */
export async function removePasskey(id: string): Promise<string | undefined> {
  return (await api.delete<null>(`/auth/passkeys/${encodeURIComponent(id)}`)).message;
}
