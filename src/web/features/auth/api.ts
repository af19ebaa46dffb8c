import type { PasswordSignInResult, SecondFactorChallenge } from '../../../shared/contracts/factors';
import type { SignUpRequest } from '../../../shared/contracts/signup';
import type { UserDto } from '../../../shared/contracts/user';
import { api, clearStoredUser } from '../../lib/api';
import { paths } from '../../paths';

// Every call of signing in and out, registering and recovering an account. They answer 401 for
// wrong credentials or codes: the page shows the message instead of leaving for /signin.
const stay = { redirectOn401: false } as const;

// The query cache (TanStack Query) belongs to the signed-in areas: the public pages that sign in
// or verify load it only when they hand the user over to them.
export const sessionCache = () => import('../../lib/query');

/**
 * The password step: the signed-in user for an account without a second factor, or the ticket of
 * the second step for one with a factor (ADR 011; second-factor-api.ts takes it from there).
 */
export async function signIn(body: { email: string; password: string }, admin = false): Promise<{ user: UserDto } | { secondFactor: SecondFactorChallenge }> {
  const { data } = await api.post<PasswordSignInResult>(admin ? '/auth/admin/signin' : '/auth/signin', body, stay);
  if ('secondFactor' in data) return { secondFactor: data.secondFactor };
  (await sessionCache()).rememberUser(data.user);
  return { user: data.user };
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

/** Ends the session; the signed-in frame then loads the home page afresh (AppShell), which drops every cached query. */
export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/signout', {}, stay);
  } finally {
    clearStoredUser();
  }
}

/** Where a user goes after signing in (spec section 4). */
export function homeFor(user: UserDto): string {
  if (user.isAdmin) return paths.adminDashboard;
  if (!user.isEmailConfirmed) return paths.emailVerification;
  return paths.accountHome;
}
