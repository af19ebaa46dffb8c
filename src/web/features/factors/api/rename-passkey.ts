import type { PasskeyDto } from '../../../../shared/contracts/factors';
import { api } from '../../../lib/api';

/** PATCH /api/auth/passkeys/{id}: a new name for one of the user's passkeys. */
export async function renamePasskey(id: string, name: string): Promise<string | undefined> {
  return (await api.patch<PasskeyDto>(`/auth/passkeys/${encodeURIComponent(id)}`, { name })).message;
}
