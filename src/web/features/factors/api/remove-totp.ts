import { api } from '../../../lib/api';
import type { FreshFactorBody } from './fresh-factor';

/** DELETE /api/auth/totp: the authenticator app and its recovery codes, with a fresh second factor (ADR 025). */
export async function removeTotp(proof: FreshFactorBody): Promise<string | undefined> {
  return (await api.delete<null>('/auth/totp', { body: proof })).message;
}
