// The public verifier's call. Types only from the contract: the page that uses it is public and
// keeps zod out of its JavaScript.
import type { VerifyResult } from '../../../../shared/contracts/statements';
import { api } from '../../../lib/api';

/** POST /statements/verify: the file goes as the form field `file` (STATEMENT_FILE_FIELD). */
export async function verifyStatement(file: File): Promise<VerifyResult> {
  const form = new FormData();
  form.append('file', file);
  return (await api.post<VerifyResult>('/statements/verify', form, { redirectOn401: false })).data;
}
