import { api } from '../../../lib/api';

/** DELETE /api/auth/totp: the authenticator app and its recovery codes. */
export async function removeTotp(): Promise<string | undefined> {
  return (await api.delete<null>('/auth/totp')).message;
}
