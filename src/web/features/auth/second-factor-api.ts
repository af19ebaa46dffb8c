import type { SignInResponse } from '../../../shared/contracts/auth';
import type { UserDto } from '../../../shared/contracts/user';
import { api, ApiError } from '../../lib/api';
import { sessionCache } from './api';

// The sign-in's second step (ADR 011): a code from the authenticator app, a recovery code, an
// emailed code, or a passkey; and a passkey on its own, without a password. The staff sign-in has
// the same calls under /auth/admin/signin. Wrong codes answer 401: the page shows the message.
const stay = { redirectOn401: false } as const;
const base = (admin: boolean) => (admin ? '/auth/admin/signin' : '/auth/signin');

export type CodeMethod = 'totp' | 'recovery' | 'email-code';

async function signedIn(request: Promise<{ data: SignInResponse }>): Promise<UserDto> {
  const { data } = await request;
  (await sessionCache()).rememberUser(data.user);
  return data.user;
}

/** POST /api/auth/signin/{totp,recovery,email-code} with the ticket and the code. */
export function signInWithCode(method: CodeMethod, ticket: string, code: string, admin: boolean): Promise<UserDto> {
  return signedIn(api.post<SignInResponse>(`${base(admin)}/${method}`, { ticket, code }, stay));
}

/** POST /api/auth/signin/email-code/resend: a new emailed code (at most once a minute). */
export async function resendSignInCode(ticket: string, admin: boolean): Promise<string | undefined> {
  return (await api.post<null>(`${base(admin)}/email-code/resend`, { ticket }, stay)).message;
}

export const PASSKEY_PROMPT_CLOSED_MESSAGE = 'The passkey prompt was closed or timed out. Please try again.';
export const PASSKEYS_UNSUPPORTED_MESSAGE = 'This browser cannot use passkeys. Sign in with your password instead.';

/**
 * A passkey sign-in: with a ticket, the second step; without, the passkey alone. The WebAuthn code
 * is loaded only when a passkey is used, so the sign-in page stays light.
 */
export async function signInWithPasskey(ticket: string | undefined, admin: boolean): Promise<UserDto> {
  const { browserSupportsWebAuthn, startAuthentication } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new ApiError(PASSKEYS_UNSUPPORTED_MESSAGE, 0, 'unsupported');
  const { data: options } = await api.post<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    `${base(admin)}/passkey/options`,
    ticket ? { ticket } : {},
    stay,
  );
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options });
  } catch {
    throw new ApiError(PASSKEY_PROMPT_CLOSED_MESSAGE, 0, 'cancelled');
  }
  return signedIn(api.post<SignInResponse>(`${base(admin)}/passkey`, { ...(ticket ? { ticket } : {}), response }, stay));
}
