import { SIGN_IN_TICKET_MESSAGE, type SecondFactorStep, type SignInResponse } from '../../shared/contracts/auth';
import { SIGN_IN_EMAIL_CODES_PER_HOUR, SIGN_IN_TICKET_ATTEMPTS_MAX, SIGN_IN_TICKET_TTL_MS } from '../../shared/limits';
import { type ServiceContext, withDb } from '../context';
import type { SignInScope, User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { AppError, badRequest, forbidden, rateLimited } from '../lib/errors';
import { queueMail } from '../mail/outbox';
import { brandOf, signInCodeMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import { newNumericCode, newToken, safeEqual, sha256 } from './crypto';
import * as repository from './repository';
import { DISABLED_MESSAGE } from './service';
import { type SessionOrigin, signInSession } from './sessions';
import { clearSignInFailures, signInFailures } from './throttle';

// The emailed-code second step of a sign-in (ADR 016), in the shape of the second-factor contract:
// POST /auth/signin answers `{ data: { secondFactor: { ticket, methods: ['email'] } } }` and no
// session; POST /auth/signin/email-code with `{ ticket, code }` answers `{ data: { token, user } }`.
// A ticket lives SIGN_IN_TICKET_TTL_MS, allows SIGN_IN_TICKET_ATTEMPTS_MAX tries and works once.
// Only the email method exists here; it is used when an account has had many failed sign-ins
// (throttle.ts decides). The ticket is the whole state of the step: a random token (its hash is
// stored) bound to the user, the scope it was asked in, and the hash of the code mailed for it.
// A new ticket does not retire older ones: an attacker holding the password could otherwise void
// the owner's code by asking for one of their own. Tickets for devices the owner has not used are
// capped at SIGN_IN_EMAIL_CODES_PER_HOUR an account, so the password's holder cannot turn the
// account's one-a-minute wait into five code guesses a minute (nor flood the owner with mail).

const HOUR_MS = 60 * 60 * 1000;
export const SIGN_IN_CODES_CAPPED_MESSAGE = (minutes: number) =>
  `We have already emailed the most sign-in codes we send in an hour for this account. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;

export const SIGN_IN_CODE_WRONG_MESSAGE = 'The code is not correct.';

const codeHash = (ticketHash: string, code: string) => sha256(`${ticketHash}:${code}`);

/**
 * Issues a ticket and mails its code to the account's owner, in one transaction; answers the step.
 * For a device the owner has not used, past SIGN_IN_EMAIL_CODES_PER_HOUR it is a 429 with
 * Retry-After (until the oldest of the hour's tickets leaves the hour) and nothing is mailed.
 */
export async function startEmailCodeStep(ctx: ServiceContext, user: User, scope: SignInScope, options: { ownersDevice: boolean }): Promise<SecondFactorStep> {
  const ticket = newToken();
  const code = newNumericCode();
  const ticketHash = sha256(ticket);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_TICKET_TTL_MS);
  const failures = await signInFailures(ctx, user.email, scope);
  await inTransaction(ctx.db, async (trx) => {
    const issued = await repository.lockAndCountEmailTickets(trx, user.id, scope, new Date(now.getTime() - HOUR_MS));
    if (!options.ownersDevice && issued.count >= SIGN_IN_EMAIL_CODES_PER_HOUR) {
      const waitMs = (issued.oldest ?? now).getTime() + HOUR_MS - now.getTime();
      throw rateLimited(SIGN_IN_CODES_CAPPED_MESSAGE(Math.max(1, Math.ceil(waitMs / 60_000))), Math.max(1, Math.ceil(waitMs / 1000)));
    }
    await repository.insertEmailTicket(trx, { tokenHash: ticketHash, userId: user.id, scope, codeHash: codeHash(ticketHash, code), expiresAt, createdAt: now });
    await queueMail(withDb(ctx, trx), signInCodeMail(brandOf(ctx.config), user.email, user.first_name, code, failures), { expiresAt });
  });
  return { secondFactor: { ticket, methods: ['email'] } };
}

/**
 * Finishes a sign-in with the ticket and the emailed code: opens the session and forgets the
 * account's failures. A wrong code is counted (and committed); the last allowed one spends the
 * ticket. An unknown, used or expired ticket is a 401: the customer starts the sign-in again.
 */
export async function completeEmailCodeStep(ctx: ServiceContext, input: { ticket: string; code: string }, origin: SessionOrigin): Promise<SignInResponse> {
  const ticketHash = sha256(input.ticket);
  const now = ctx.clock.now();
  const outcome = await inTransaction(ctx.db, async (trx): Promise<{ error: AppError } | { userId: string; scope: SignInScope }> => {
    const row = await repository.lockEmailTicket(trx, ticketHash);
    if (!row || row.used_at || new Date(row.expires_at).getTime() <= now.getTime() || row.attempts >= SIGN_IN_TICKET_ATTEMPTS_MAX) {
      return { error: new AppError('unauthorized', SIGN_IN_TICKET_MESSAGE) };
    }
    if (!safeEqual(row.code_hash, codeHash(ticketHash, input.code))) {
      const attempts = row.attempts + 1;
      const left = SIGN_IN_TICKET_ATTEMPTS_MAX - attempts;
      await repository.recordWrongTicketCode(trx, row.id, attempts, left === 0);
      if (left === 0) return { error: new AppError('unauthorized', `${SIGN_IN_CODE_WRONG_MESSAGE} ${SIGN_IN_TICKET_MESSAGE}`) };
      return { error: badRequest(`${SIGN_IN_CODE_WRONG_MESSAGE} ${left} attempt${left === 1 ? '' : 's'} left.`, { code: SIGN_IN_CODE_WRONG_MESSAGE }) };
    }
    await repository.markTicketUsed(trx, row.id);
    return { userId: row.user_id, scope: row.scope };
  });
  if ('error' in outcome) throw outcome.error;
  const user = await repository.findUserById(ctx.db, outcome.userId);
  if (!user || user.closed_at) throw new AppError('unauthorized', SIGN_IN_TICKET_MESSAGE);
  if (user.is_account_disabled) throw forbidden(DISABLED_MESSAGE);
  await clearSignInFailures(ctx.db, user.email, outcome.scope);
  const token = await signInSession(ctx, user.id, origin);
  return { token, user: await toUserDto(ctx.db, user) };
}
