import { api } from '../../../lib/api';

export interface TotpEnrolment {
  secret: string;
  uri: string;
}

/** POST /api/auth/totp/enrol: a new secret, shown this once (its URI becomes the QR code). */
export async function enrolTotp(): Promise<TotpEnrolment> {
  return (await api.post<TotpEnrolment>('/auth/totp/enrol')).data;
}
