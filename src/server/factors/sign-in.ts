import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { SignInResponse } from '../../shared/contracts/auth';
import {
  EMAIL_CODE_SENT_MESSAGE,
  EMAIL_CODE_WAIT_MESSAGE,
  EMAIL_SIGN_IN_CODE_RESEND_MS,
  METHOD_NOT_OFFERED_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  type PasswordSignInResult,
  type SecondFactorChallenge,
  SIGN_IN_TICKET_ATTEMPTS_MAX,
  SIGN_IN_TICKET_TTL_MS,
  TICKET_EXHAUSTED_MESSAGE,
  TICKET_INVALID_MESSAGE,
  TOTP_REPLAYED_MESSAGE,
  WEBAUTHN_CHALLENGE_TTL_MS,
  WRONG_CODE_MESSAGE,
} from '../../shared/contracts/factors';
import { clearThrottle, accountSubject, findUserById } from '../auth/repository';
import { newNumericCode, newToken, safeEqual, sha256 } from '../auth/crypto';
import { type SessionOrigin, signInSession } from '../auth/sessions';
import type { AppContext } from '../context';
import type { SecondFactorMethod, SignInAudience, SignInTicket, User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { AppError, badRequest, rateLimited } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, signInCodeMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import { SIGN_IN_EMAIL_CODES_PER_HOUR } from '../../shared/limits';
import { checkTotpCode, spendRecoveryCode } from './proofs';
import * as repository from './repository';
import { authenticationOptions, challengeOf, verifyPasskeyAssertion } from './webauthn';

// The sign-in's second step (ADR 011). The password step ends in afterPassword: an account with a
// factor gets a ticket instead of a session. A ticket is bound to its user and to the sign-in it
// came from (customer or staff), lives SIGN_IN_TICKET_TTL_MS, allows SIGN_IN_TICKET_ATTEMPTS_MAX
// failed tries at its second step and works once; only its hash is stored.

type SignInContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

/** The password sign-in's words for a disabled account (auth/service.ts), at the second step too. */
export const DISABLED_MESSAGE = 'This account has been disabled. Please contact support.';

/** The methods a user's own factors offer at a sign-in (empty: the password alone signs in). */
export async function factorMethodsOf(ctx: Pick<AppContext, 'db'>, userId: string): Promise<SecondFactorMethod[]> {
  const factors = await repository.countFactors(ctx.db, userId);
  const methods: SecondFactorMethod[] = [];
  if (factors.passkeys > 0) methods.push('passkey');
  if (factors.totp) methods.push('totp');
  if (factors.totp && factors.recoveryCodesLeft > 0) methods.push('recovery');
  return methods;
}

const emailCodeHash = (ticketId: string, code: string) => sha256(`${ticketId}:${code}`);

const HOUR_MS = 60 * 60 * 1000;
export const SIGN_IN_CODES_CAPPED_MESSAGE = (minutes: number) =>
  `We have already emailed the most sign-in codes we send in an hour for this account. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;

/** Why a ticket offering "email" was issued, for the cap and the mail (ADR 016's throttle). */
export interface EmailTicketReason {
  /** The attempt comes from a browser the owner has signed in from: not capped. */
  ownersDevice: boolean;
  /** The account's recent failed sign-ins, which the mail names. */
  failures: number;
}

/**
 * Issues the ticket of a sign-in whose password was right: no session yet. With "email" among the
 * methods a code is emailed now (in the ticket's transaction): the throttle of ADR 016 makes a
 * sign-in need a code sent to the owner past many failures. Such tickets are capped at
 * SIGN_IN_EMAIL_CODES_PER_HOUR an account and audience for browsers the owner has not used: past
 * it, a 429 with Retry-After (until the oldest of the hour's leaves the hour) and nothing mailed.
 * A new ticket never retires older ones, so the password's holder cannot void the owner's code.
 */
export async function issueSecondFactorTicket(
  ctx: SignInContext,
  user: Pick<User, 'id' | 'email' | 'first_name'>,
  methods: SecondFactorMethod[],
  audience: SignInAudience,
  reason: EmailTicketReason = { ownersDevice: false, failures: 0 },
): Promise<SecondFactorChallenge> {
  const offered = [...new Set(methods)];
  if (offered.length === 0) throw new Error('a sign-in ticket needs at least one method');
  const token = newToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_TICKET_TTL_MS);
  await inTransaction(ctx.db, async (trx) => {
    if (offered.includes('email')) await assertEmailCodeAllowed(trx, user.id, audience, reason.ownersDevice, now);
    const ticket = await repository.insertTicket(trx, {
      userId: user.id,
      tokenHash: sha256(token),
      audience,
      methods: offered,
      expiresAt,
      createdAt: now,
      ownersDevice: reason.ownersDevice,
    });
    if (offered.includes('email')) await mailSignInCode({ ...ctx, db: trx }, { id: ticket.id, audience }, user, expiresAt, reason.failures);
  });
  return { ticket: token, methods: offered };
}

/**
 * The hourly cap on emailed sign-in codes for browsers the owner has not used: every code counts,
 * a ticket's first and each resend (ADR 016), so resending is no way around it. Past it, a 429
 * with Retry-After (until the oldest of the hour's leaves the hour) and nothing mailed. Use inside
 * the transaction that mails the code: it serialises the user's codes.
 */
async function assertEmailCodeAllowed(trx: SignInContext['db'], userId: string, audience: SignInAudience, ownersDevice: boolean, now: Date) {
  const sent = await repository.lockAndCountEmailCodes(trx, userId, audience, new Date(now.getTime() - HOUR_MS));
  if (ownersDevice || sent.count < SIGN_IN_EMAIL_CODES_PER_HOUR) return;
  const waitMs = (sent.oldest ?? now).getTime() + HOUR_MS - now.getTime();
  throw rateLimited(SIGN_IN_CODES_CAPPED_MESSAGE(Math.max(1, Math.ceil(waitMs / 60_000))), Math.max(1, Math.ceil(waitMs / 1000)));
}

async function mailSignInCode(
  ctx: SignInContext,
  ticket: { id: string; audience: SignInAudience },
  user: Pick<User, 'id' | 'email' | 'first_name'>,
  expiresAt: Date,
  failures: number,
): Promise<void> {
  const code = newNumericCode();
  const ticketId = ticket.id;
  await repository.setTicketEmailCode(ctx.db, ticketId, emailCodeHash(ticketId, code), ctx.clock.now());
  await repository.recordEmailCodeSent(ctx.db, user.id, ticket.audience, ctx.clock.now());
  const validMs = Math.max(60_000, expiresAt.getTime() - ctx.clock.now().getTime());
  await queueMail(ctx, signInCodeMail(brandOf(ctx.config), user.email, user.first_name, code, Math.round(validMs / 60_000) * 60_000, failures), { expiresAt });
}

/**
 * What a right password leads to: a session for an account without a second factor (as before),
 * or a ticket for its second step. The account's own factors are offered when it has any (they
 * already keep out whoever only has the password); without one, when the throttle of ADR 016 asks
 * for the emailed code (`emailStep`), the ticket offers "email", so one second-step screen serves
 * both. The only change to the password sign-in (auth/service.ts).
 */
export async function afterPassword(
  ctx: SignInContext,
  user: User,
  options: { adminOnly: boolean; origin: SessionOrigin },
  emailStep: EmailTicketReason | null = null,
): Promise<PasswordSignInResult> {
  const audience: SignInAudience = options.adminOnly ? 'staff' : 'customer';
  const methods = await factorMethodsOf(ctx, user.id);
  if (methods.length > 0) return { secondFactor: await issueSecondFactorTicket(ctx, user, methods, audience) };
  if (emailStep) return { secondFactor: await issueSecondFactorTicket(ctx, user, ['email'], audience, emailStep) };
  const token = await signInSession(ctx, user.id, options.origin);
  return { token, user: await toUserDto(ctx.db, user) };
}

// ---------------------------------------------------------------- the second step

type Attempt = 'ok' | { refused: string };

/**
 * Runs one try at a ticket's second step in a transaction that locks the ticket: the ticket must
 * be open (not used, not expired, tries left), of this sign-in (customer or staff), and offer the
 * method. A failed try is counted and committed (the error is returned, not thrown, out of the
 * transaction); a right one spends the ticket. Answers the user to open a session for.
 */
async function tryTicket(
  ctx: SignInContext,
  input: { ticket: string; audience: SignInAudience; method: SecondFactorMethod },
  attempt: (trx: SignInContext, ticket: SignInTicket) => Promise<Attempt>,
): Promise<User> {
  const now = ctx.clock.now();
  const outcome = await inTransaction(ctx.db, async (trx): Promise<{ error: AppError } | { user: User }> => {
    const ticket = await repository.lockTicket(trx, sha256(input.ticket));
    if (!ticket || ticket.used_at || new Date(ticket.expires_at).getTime() <= now.getTime() || ticket.audience !== input.audience) {
      return { error: new AppError('unauthorized', TICKET_INVALID_MESSAGE) };
    }
    if (ticket.attempts >= SIGN_IN_TICKET_ATTEMPTS_MAX) return { error: new AppError('unauthorized', TICKET_EXHAUSTED_MESSAGE) };
    if (!ticket.methods.includes(input.method)) return { error: badRequest(METHOD_NOT_OFFERED_MESSAGE) };
    const user = await findUserById(trx, ticket.user_id);
    if (!user || user.closed_at) return { error: new AppError('unauthorized', TICKET_INVALID_MESSAGE) };
    if (user.is_account_disabled) return { error: new AppError('forbidden', DISABLED_MESSAGE) };
    const result = await attempt({ ...ctx, db: trx }, ticket);
    if (result === 'ok') {
      await repository.markTicketUsed(trx, ticket.id);
      return { user };
    }
    const attempts = ticket.attempts + 1;
    await repository.countTicketAttempt(trx, ticket.id, attempts);
    const left = SIGN_IN_TICKET_ATTEMPTS_MAX - attempts;
    if (left <= 0) return { error: new AppError('unauthorized', TICKET_EXHAUSTED_MESSAGE) };
    return { error: new AppError('unauthorized', `${result.refused} ${left} attempt${left === 1 ? '' : 's'} left.`) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.user;
}

async function openSession(ctx: SignInContext, user: User, origin: SessionOrigin, audience: SignInAudience): Promise<SignInResponse> {
  // A completed sign-in forgets the account's failed ones in its scope (ADR 016).
  await clearThrottle(ctx.db, accountSubject(user.email), audience);
  const token = await signInSession(ctx, user.id, origin);
  return { token, user: await toUserDto(ctx.db, user) };
}

export interface SecondStep {
  ticket: string;
  audience: SignInAudience;
  origin: SessionOrigin;
}

export async function signInWithTotp(ctx: SignInContext, step: SecondStep & { code: string }): Promise<SignInResponse> {
  const user = await tryTicket(ctx, { ...step, method: 'totp' }, async (trx, ticket) => {
    const check = await checkTotpCode(trx.db, ticket.user_id, step.code, trx.clock.now());
    return check === 'ok' ? 'ok' : { refused: check === 'replayed' ? TOTP_REPLAYED_MESSAGE : WRONG_CODE_MESSAGE };
  });
  return openSession(ctx, user, step.origin, step.audience);
}

export async function signInWithRecoveryCode(ctx: SignInContext, step: SecondStep & { code: string }): Promise<SignInResponse> {
  const user = await tryTicket(ctx, { ...step, method: 'recovery' }, async (trx, ticket) =>
    (await spendRecoveryCode(trx.db, ticket.user_id, step.code)) ? 'ok' : { refused: 'This recovery code is not correct or was already used.' },
  );
  return openSession(ctx, user, step.origin, step.audience);
}

export async function signInWithEmailCode(ctx: SignInContext, step: SecondStep & { code: string }): Promise<SignInResponse> {
  const user = await tryTicket(ctx, { ...step, method: 'email' }, async (_trx, ticket) =>
    ticket.email_code_hash && safeEqual(ticket.email_code_hash, emailCodeHash(ticket.id, step.code)) ? 'ok' : { refused: WRONG_CODE_MESSAGE },
  );
  return openSession(ctx, user, step.origin, step.audience);
}

/**
 * POST /api/auth/signin/email-code/resend: a new emailed code for a ticket that offers "email"
 * (the earlier code stops working), at most once a minute. Not a try: it counts no attempt.
 */
export async function resendSignInEmailCode(ctx: SignInContext, input: { ticket: string; audience: SignInAudience }): Promise<Outcome<null>> {
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (trx) => {
    const ticket = await repository.lockTicket(trx, sha256(input.ticket));
    const open = ticket && !ticket.used_at && new Date(ticket.expires_at).getTime() > now.getTime() && ticket.audience === input.audience;
    if (!ticket || !open || ticket.attempts >= SIGN_IN_TICKET_ATTEMPTS_MAX) throw new AppError('unauthorized', TICKET_INVALID_MESSAGE);
    if (!ticket.methods.includes('email')) throw badRequest(METHOD_NOT_OFFERED_MESSAGE);
    if (ticket.email_code_sent_at && now.getTime() - new Date(ticket.email_code_sent_at).getTime() < EMAIL_SIGN_IN_CODE_RESEND_MS) {
      throw new AppError('rate_limited', EMAIL_CODE_WAIT_MESSAGE);
    }
    const user = await findUserById(trx, ticket.user_id);
    if (!user || user.closed_at) throw new AppError('unauthorized', TICKET_INVALID_MESSAGE);
    // A resend is one more code in the owner's mailbox: it counts towards the hourly cap like a new ticket's.
    await assertEmailCodeAllowed(trx, user.id, ticket.audience, ticket.owners_device, now);
    await mailSignInCode({ ...ctx, db: trx }, { id: ticket.id, audience: ticket.audience }, user, new Date(ticket.expires_at), 0);
  });
  return { data: null, message: EMAIL_CODE_SENT_MESSAGE };
}

// ---------------------------------------------------------------- passkeys at sign-in

/**
 * Options for a passkey sign-in. With a ticket (its second step): one of the ticket user's
 * passkeys. Without: any discoverable passkey of this site, with user verification, which signs
 * in alone (something the user has, unlocked by something they know or are).
 */
export async function passkeySignInOptions(ctx: SignInContext, input: { ticket?: string | undefined; audience: SignInAudience }) {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS);
  if (input.ticket === undefined) {
    const options = await authenticationOptions(ctx.config, null, 'required');
    await repository.insertChallenge(ctx.db, {
      challenge: options.challenge,
      purpose: 'sign_in',
      userId: null,
      ticketId: null,
      audience: input.audience,
      expiresAt,
    });
    return options;
  }
  const ticket = await repository.findTicket(ctx.db, sha256(input.ticket));
  const open = ticket && !ticket.used_at && new Date(ticket.expires_at).getTime() > now.getTime() && ticket.audience === input.audience;
  if (!ticket || !open || ticket.attempts >= SIGN_IN_TICKET_ATTEMPTS_MAX) throw new AppError('unauthorized', TICKET_INVALID_MESSAGE);
  if (!ticket.methods.includes('passkey')) throw badRequest(METHOD_NOT_OFFERED_MESSAGE);
  const options = await authenticationOptions(ctx.config, await repository.listPasskeys(ctx.db, ticket.user_id), 'preferred');
  await repository.insertChallenge(ctx.db, {
    challenge: options.challenge,
    purpose: 'sign_in',
    userId: ticket.user_id,
    ticketId: ticket.id,
    audience: input.audience,
    expiresAt: ticket.expires_at < expiresAt ? new Date(ticket.expires_at) : expiresAt,
  });
  return options;
}

/** A passkey's answer: the second step of a ticket, or (without one) a sign-in on its own. */
export async function signInWithPasskey(
  ctx: SignInContext,
  input: { ticket?: string | undefined; audience: SignInAudience; response: AuthenticationResponseJSON; origin: SessionOrigin },
): Promise<SignInResponse> {
  const challenge = challengeOf(input.response);
  if (input.ticket !== undefined) {
    const user = await tryTicket(ctx, { ticket: input.ticket, audience: input.audience, method: 'passkey' }, async (trx, ticket) => {
      const issued = challenge ? await repository.spendChallenge(trx.db, challenge, 'sign_in', trx.clock.now()) : undefined;
      if (!challenge || !issued || issued.ticket_id !== ticket.id) return { refused: PASSKEY_REFUSED_MESSAGE };
      const passkey = await verifyPasskeyAssertion(trx.db, trx.config, {
        response: input.response,
        expectedChallenge: challenge,
        userId: ticket.user_id,
        requireUserVerification: false,
      });
      return passkey ? 'ok' : { refused: PASSKEY_REFUSED_MESSAGE };
    });
    return openSession(ctx, user, input.origin, input.audience);
  }
  const user = await inTransaction(ctx.db, async (trx) => {
    const issued = challenge ? await repository.spendChallenge(trx, challenge, 'sign_in', ctx.clock.now()) : undefined;
    if (!challenge || !issued || issued.ticket_id !== null || issued.audience !== input.audience) return null;
    const passkey = await verifyPasskeyAssertion(trx, ctx.config, {
      response: input.response,
      expectedChallenge: challenge,
      userId: null,
      requireUserVerification: true,
    });
    return passkey ? findUserById(trx, passkey.user_id) : null;
  });
  // A passkey of a closed account, or of a customer at the staff sign-in, is refused like an unknown one.
  if (!user || user.closed_at || (input.audience === 'staff' && !user.is_admin)) throw new AppError('unauthorized', PASSKEY_REFUSED_MESSAGE);
  if (user.is_account_disabled) throw new AppError('forbidden', DISABLED_MESSAGE);
  return openSession(ctx, user, input.origin, input.audience);
}
