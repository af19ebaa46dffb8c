import type { PasswordSignInResult, SecondFactorStep, SignInResponse } from '../../../shared/contracts/auth';
import type { SignUpRequest } from '../../../shared/contracts/signup';
import type { UserDto } from '../../../shared/contracts/user';
import { api, clearStoredUser } from '../../lib/api';
import { paths } from '../../paths';

// Every call of signing in and out, registering and recovering an account. They answer 401 for
// wrong credentials or codes: the page shows the message instead of leaving for /signin.
const stay = { redirectOn401: false } as const;

// The query cache (TanStack Query) belongs to the signed-in areas: the public pages that sign in
// or verify load it only when they hand the user over to them.
const sessionCache = () => import('../../lib/query');

/** Signed in (the user), or the password was right but a second step is needed (its ticket). */
export type SignInResult = { user: UserDto } | SecondFactorStep;

export async function signIn(body: { email: string; password: string }, admin = false): Promise<SignInResult> {
  const { data } = await api.post<PasswordSignInResult>(admin ? '/auth/admin/signin' : '/auth/signin', body, stay);
  if ('secondFactor' in data) return data;
  (await sessionCache()).rememberUser(data.user);
  return { user: data.user };
}

/** The second step with the code emailed for the ticket (after many failed sign-ins on the account). */
export async function signInWithEmailCode(body: { ticket: string; code: string }): Promise<UserDto> {
  const { data } = await api.post<SignInResponse>('/auth/signin/email-code', body, stay);
  (await sessionCache()).rememberUser(data.user);
  return data.user;
}

/** The same answer for a new and an existing email (no account enumeration): its message. */
export async function signUp(body: SignUpRequest): Promise<string | undefined> {
  return (await api.post<null>('/auth/signup', body, stay)).message;
}

export async function verifyEmail(otp: string): Promise<UserDto> {
  const { data } = await api.post<UserDto>('/auth/verify-email', { otp });
  (await sessionCache()).rememberUser(data);
  return data;
}

export async function resendEmailCode(): Promise<void> {
  await api.post('/auth/resend-otp');
}

export async function requestPasswordReset(email: string): Promise<string | undefined> {
  return (await api.post<null>('/auth/forgot-password', { email }, stay)).message;
}

export async function resetPassword(body: { token: string; password: string; confirmPassword: string }): Promise<string | undefined> {
  return (await api.post<null>('/auth/reset-password', body, stay)).message;
}

export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/signout', {}, stay);
  } finally {
    clearStoredUser();
    (await sessionCache()).queryClient.clear();
  }
}

/** Where a user goes after signing in (spec section 4). */
export function homeFor(user: UserDto): string {
  if (user.isAdmin) return paths.adminDashboard;
  if (!user.isEmailConfirmed) return paths.emailVerification;
  return paths.accountHome;
}
