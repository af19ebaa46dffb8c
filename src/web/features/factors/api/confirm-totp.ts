import { api } from '../../../lib/api';

/** POST /api/auth/totp/confirm: the app's first code turns it on; answers the 10 recovery codes, shown once. */
export async function confirmTotp(code: string): Promise<string[]> {
  return (await api.post<{ recoveryCodes: string[] }>('/auth/totp/confirm', { code })).data.recoveryCodes;
}
