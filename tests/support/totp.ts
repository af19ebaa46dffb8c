import { totpCodeForStep, totpStepAt } from '../../src/server/factors/totp';
import { TOTP_PERIOD_SECONDS } from '../../src/shared/contracts/factors';

/**
 * The staff secret every test run enrols for the first admin (ADMIN_TOTP_SECRET of the API tests'
 * apps and of the browser suite's server): the one place tests compute staff codes from.
 */
export const STAFF_TOTP_SECRET = 'LEDGERLINETESTSTAFFSECRETTOTP234';

/** What an authenticator app holding `secret` shows during a 30-second step. */
export const staffCode = (step: number, secret = STAFF_TOTP_SECRET): string => totpCodeForStep(secret, step);

export { totpStepAt };

/** Milliseconds until `step` begins (0 when it has). */
export const msUntilStep = (step: number, now: Date): number => Math.max(0, step * TOTP_PERIOD_SECONDS * 1000 - now.getTime());

/**
 * The step whose code to type next, for a user whose newest accepted step is `lastUsed`: the
 * current one, or the next (a code a second early is still in the server's window), never one
 * already accepted (the server refuses a code twice). `wait` is how long to wait before typing it,
 * when even the next step is taken: the server rule stays strict, the helper waits as a person would.
 */
export function nextStaffStep(lastUsed: number | undefined, now: Date): { step: number; waitMs: number } {
  const current = totpStepAt(now);
  const step = Math.max(current, (lastUsed ?? -Infinity) + 1);
  // The server accepts the step after its current one; further ahead, wait until it is that close.
  return { step, waitMs: step > current + 1 ? msUntilStep(step - 1, now) + 50 : 0 };
}

/**
 * A staff sign-in over HTTP (a server a test started as a process, with ADMIN_TOTP_SECRET set to
 * STAFF_TOTP_SECRET): the password, then the current step's code. Answers the session token. For a
 * first sign-in of that admin on its database; later ones go through tests/support/app.ts.
 */
export async function staffSignInOverHttp(base: string, credentials = { email: 'admin@example.com', password: 'Ledgerline-Admin-2026' }): Promise<string> {
  const post = async (url: string, body: unknown) => {
    const response = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { data?: { token?: string; secondFactor?: { ticket: string } }; message?: string };
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${answer.message}`);
    return answer.data;
  };
  const ticket = (await post('/api/auth/admin/signin', credentials))?.secondFactor?.ticket;
  if (!ticket) throw new Error('the staff sign-in answered no ticket');
  const token = (await post('/api/auth/admin/signin/totp', { ticket, code: staffCode(totpStepAt(new Date())) }))?.token;
  if (!token) throw new Error('the staff second step answered no token');
  return token;
}
