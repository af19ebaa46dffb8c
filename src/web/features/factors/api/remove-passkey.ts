import { api } from '../../../lib/api';
import type { FreshFactorBody } from './fresh-factor';

/** DELETE /api/auth/passkeys/{id}, with a fresh second factor (ADR 025). */
export async function removePasskey(id: string, proof: FreshFactorBody): Promise<string | undefined> {
  return (await api.delete<null>(`/auth/passkeys/${encodeURIComponent(id)}`, { body: proof })).message;
}
