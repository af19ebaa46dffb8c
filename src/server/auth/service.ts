import {
  CODE_SENT_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  FRESH_FACTOR_REFUSED_MESSAGE,
  FRESH_FACTOR_REQUIRED_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  PASSWORD_RESET_MESSAGE,
  RESET_LINK_SENT_MESSAGE,
  SIGNED_OUT_MESSAGE,
  SIGNED_UP_MESSAGE,
} from '../../shared/contracts/auth';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasswordSignInResult } from '../../shared/contracts/factors';
import { type SignUpInput } from '../../shared/contracts/signup';
import type { UserDto } from '../../shared/contracts/user';
import { EMAIL_CODE_TTL_MS, PASSWORD_RESET_TTL_MS, RESEND_INTERVAL_MS } from '../../shared/limits';
import { type ActorContext, type AppContext, type ServiceContext, withDb } from '../context';
import type { DB } from '../db/database';
import type { SessionUser, User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { openCustomerAccounts } from '../ledger/accounts';
import { AppError, badRequest } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, passwordChangedMail, passwordResetMail, signUpAttemptMail, verificationCodeMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import { consumeCode, issueCode } from './codes';
import { hashPassword, newToken, sha256, verifyAgainstDummy, verifyPassword } from './crypto';
import { assertPasswordAllowed } from './passwords';
import * as repository from './repository';
import { afterPassword } from '../factors/sign-in';
import { freshFactorProof, verifyFreshFactor } from '../factors/proofs';
import { countFactors } from '../factors/repository';
import { type SessionOrigin, staffAccessEnded } from './sessions';
import { STAFF_SUSPENDED_MESSAGE } from '../../shared/staff-roles';
import * as throttle from './throttle';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const DISABLED_MESSAGE = 'This account has been disabled. Please contact support.';
const RESET_LINK_INVALID_MESSAGE = 'The reset link is invalid or has expired. Please ask for a new one.';

/** What an attacker would try first for this account's password: its names, its email, the bank's name. */
const guessesFor = (ctx: AppContext, person: { email: string; first_name?: string; last_name?: string; firstName?: string; lastName?: string }) =>
  [person.email, person.first_name ?? person.firstName ?? '', person.last_name ?? person.lastName ?? '', ctx.config.bankName, 'ledgerline'].filter(Boolean);

/** Mails a fresh email verification code (the earlier one stops working), in one transaction with the code. */
async function sendVerificationCode(ctx: AppContext, user: SessionUser): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const { code, expiresAt } = await issueCode(trx, {
      userId: user.id,
      purpose: 'email_verification',
      binding: user.email,
      ttlMs: EMAIL_CODE_TTL_MS,
      now: ctx.clock.now(),
    });
    await queueMail(withDb(ctx, trx), verificationCodeMail(brandOf(ctx.config), user.email, user.first_name, code), { expiresAt });
  });
}

/**
 * Opens a customer with their two accounts; the email is confirmed later with a mailed code. The
 * answer is the same for an email that already has an account (no account enumeration, ADR 012):
 * its owner is emailed instead, and nothing is opened. Both ways hash the password and send one
 * mail, so they also take about the same time.
 */
export async function signUp(ctx: ServiceContext, input: SignUpInput): Promise<Outcome<null>> {
  assertPasswordAllowed(input.password, guessesFor(ctx, input));
  const passwordHash = await hashPassword(input.password);
  await inTransaction(ctx.db, async (trx) => {
    const user = await repository.insertUserUnlessEmailTaken(trx, {
      email: input.email,
      password_hash: passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      phone: input.phone,
      address: input.address,
      date_of_birth: input.dateOfBirth,
      sex: input.sex,
      country_code: input.countryCode,
      occupation: input.occupation,
      annual_income_range: input.annualIncomeRange,
      account_type: input.accountType,
      ssn_tin: input.ssnTIN ?? null,
    });
    if (user) {
      await openCustomerAccounts(trx, user.id);
      await sendVerificationCode(withDb(ctx, trx), user);
      return;
    }
    // Taken: by an open account (its owner hears of the attempt) or by a closed one (nobody to tell).
    const owner = await repository.findOpenUserByEmail(trx, input.email);
    if (owner) await queueMail(withDb(ctx, trx), signUpAttemptMail(brandOf(ctx.config), owner.email, owner.first_name));
  });
  return { data: null, message: SIGNED_UP_MESSAGE, created: true };
}

/**
 * Checks the credentials and opens a session. An unknown email costs the same time as a wrong
 * password and gets the same answer; a disabled account is named only after the right password.
 * Failures slow the next attempts down and, past a threshold, the right password also needs a code
 * emailed to the owner (throttle.ts): then the answer is a sign-in ticket offering "email" (factors/sign-in.ts).
 */
export async function signIn(
  ctx: ServiceContext,
  credentials: { email: string; password: string },
  options: { adminOnly: boolean; origin: SessionOrigin },
): Promise<PasswordSignInResult> {
  const user = await repository.findOpenUserByEmail(ctx.db, credentials.email);
  const attempt = signInAttemptOf(credentials.email, user, options);
  await throttle.admitSignIn(ctx, attempt);
  const valid = user ? await verifyPassword(user.password_hash, credentials.password) : await verifyAgainstDummy(credentials.password);
  if (!user || !valid || (options.adminOnly && !user.is_admin)) {
    await throttle.recordSignInFailure(ctx, attempt);
    throw new AppError('unauthorized', INVALID_CREDENTIALS);
  }
  if (user.is_account_disabled) throw new AppError('forbidden', DISABLED_MESSAGE);
  if (staffAccessEnded(user)) throw new AppError('forbidden', STAFF_SUSPENDED_MESSAGE);
  // Past many failed sign-ins the right password also needs a code emailed to the owner (ADR 016):
  // the sign-in ticket of ADR 011 offering "email" (an account with a factor is offered its factors).
  const emailStep = (await throttle.signInNeedsEmailCode(ctx, user.email, attempt.scope))
    ? { ownersDevice: await throttle.isOwnersDevice(ctx, attempt), failures: await throttle.signInFailures(ctx, user.email, attempt.scope) }
    : null;
  const result = await afterPassword(ctx, user, options, emailStep);
  // A session now: the sign-in is complete and the account's failures are forgotten (a ticket's second step forgets them).
  if ('token' in result) await throttle.clearSignInFailures(ctx.db, user.email, attempt.scope);
  return result;
}

/** What the throttle knows of a sign-in: staff and customer sign-ins count apart. */
function signInAttemptOf(email: string, user: User | undefined, options: { adminOnly: boolean; origin: SessionOrigin }): throttle.SignInAttempt {
  return {
    email,
    scope: options.adminOnly ? 'staff' : 'customer',
    ip: options.origin.ip,
    userId: user?.id ?? null,
    deviceToken: options.origin.deviceToken,
  };
}

/** Ends the request's session, if it has one. */
export async function signOut(ctx: ServiceContext): Promise<Outcome<null>> {
  if (ctx.actor?.sessionId) await repository.endSession(ctx.db, ctx.actor.sessionId);
  return { data: null, message: SIGNED_OUT_MESSAGE };
}

export async function verifyEmail(ctx: ActorContext, otp: string): Promise<Outcome<UserDto>> {
  let user = ctx.actor.user;
  if (!user.is_email_confirmed) {
    await consumeCode(ctx.db, {
      userId: user.id,
      purpose: 'email_verification',
      binding: user.email,
      code: otp,
      messages: { wrong: 'Invalid verification code.', expired: 'This code has expired. Please ask for a new one.' },
      now: ctx.clock.now(),
    });
    user = await repository.markEmailConfirmed(ctx.db, user.id);
  }
  return { data: await toUserDto(ctx.db, user), message: EMAIL_VERIFIED_MESSAGE };
}

/** Whether a password is the user's current one, checked against a fresh read of its hash. */
export async function isCurrentPassword(db: DB, userId: string, password: string): Promise<boolean> {
  const hash = await repository.passwordHashOf(db, userId);
  return hash !== undefined && (await verifyPassword(hash, password));
}

/** A new verification code, at most once per RESEND_INTERVAL_MS. */
export async function resendVerificationCode(ctx: ActorContext): Promise<Outcome<null>> {
  const user = ctx.actor.user;
  if (user.is_email_confirmed) throw badRequest('Your email is already verified.');
  const last = await repository.newestCodeIssuedAt(ctx.db, user.id, 'email_verification');
  if (last && ctx.clock.now().getTime() - last.getTime() < RESEND_INTERVAL_MS) {
    throw new AppError('rate_limited', 'Please wait a minute before asking for another code.');
  }
  await sendVerificationCode(ctx, user);
  return { data: null, message: CODE_SENT_MESSAGE };
}

/**
 * Always answers the same way and does the same work, so neither the answer nor its time reveals
 * whether an email has an account: the same statements run for any email (they change no row for
 * an unknown one), and the mail is not sent while the request waits.
 */
export async function requestPasswordReset(ctx: ServiceContext, email: string): Promise<Outcome<null>> {
  const token = newToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + PASSWORD_RESET_TTL_MS);
  await inTransaction(ctx.db, async (trx) => {
    await repository.retireOpenResets(trx, email);
    const issued = await repository.insertPasswordResetFor(trx, { email, tokenHash: sha256(token), expiresAt });
    const user = issued ? await repository.findOpenUserByEmail(trx, email) : undefined;
    // Queued in the transaction, never sent in the request: a slow or failing mail server cannot
    // tell a registered email apart.
    if (user) {
      const link = `${ctx.config.publicUrl}/forgot-password?token=${token}`;
      await queueMail(withDb(ctx, trx), passwordResetMail(brandOf(ctx.config), user.email, user.first_name, link), { expiresAt });
    }
  });
  return { data: null, message: RESET_LINK_SENT_MESSAGE };
}

/** A reset link works once, within its time; it ends every session and forgets the account's failed sign-ins. */
export async function resetPassword(ctx: ServiceContext, input: { token: string; password: string }): Promise<Outcome<null>> {
  assertPasswordAllowed(input.password, [ctx.config.bankName, 'ledgerline']);
  const passwordHash = await hashPassword(input.password);
  await inTransaction(ctx.db, async (trx) => {
    const reset = await repository.lockPasswordReset(trx, sha256(input.token));
    if (!reset || reset.used_at || new Date(reset.expires_at).getTime() <= ctx.clock.now().getTime()) {
      throw badRequest(RESET_LINK_INVALID_MESSAGE);
    }
    await repository.markResetUsed(trx, reset.id);
    const updated = await repository.setPasswordHash(trx, reset.user_id, passwordHash);
    await repository.endUserSessions(trx, updated.id);
    await throttle.clearAccountFailures(trx, updated.email);
    await queueMail(withDb(ctx, trx), passwordChangedMail(brandOf(ctx.config), updated.email, updated.first_name));
  });
  return { data: null, message: PASSWORD_RESET_MESSAGE };
}

/**
 * Needs the current password, and for an account with a second factor a fresh one (ADR 011): a
 * code from its authenticator app (accepted once), one of its recovery codes (spent), or a passkey
 * answering a step-up challenge. Every other session of the user ends; the owner is emailed.
 */
export async function changePassword(
  ctx: ActorContext,
  input: { oldPassword: string; newPassword: string; secondFactorCode?: string; secondFactorPasskey?: AuthenticationResponseJSON },
): Promise<Outcome<null>> {
  const { user, sessionId } = ctx.actor;
  if (!(await isCurrentPassword(ctx.db, user.id, input.oldPassword))) {
    throw badRequest('Your current password is not correct.', { oldPassword: 'Incorrect password' });
  }
  if (input.oldPassword === input.newPassword) throw badRequest('The new password must be different from the current one.');
  assertPasswordAllowed(input.newPassword, guessesFor(ctx, user), 'newPassword');
  const proof = freshFactorProof(input);
  const factors = await countFactors(ctx.db, user.id);
  const hasFactor = factors.passkeys > 0 || factors.totp;
  if (hasFactor && !proof) throw badRequest(FRESH_FACTOR_REQUIRED_MESSAGE, { secondFactorCode: FRESH_FACTOR_REQUIRED_MESSAGE });
  const passwordHash = await hashPassword(input.newPassword);
  const changed = await inTransaction(ctx.db, async (trx) => {
    // The proof is spent with the change: a refused one leaves nothing written.
    if (hasFactor && !(await verifyFreshFactor({ ...ctx, db: trx }, user.id, proof!))) return false;
    await repository.setPasswordHash(trx, user.id, passwordHash);
    await repository.endUserSessions(trx, user.id, sessionId);
    await queueMail(withDb(ctx, trx), passwordChangedMail(brandOf(ctx.config), user.email, user.first_name));
    return true;
  });
  if (!changed) throw badRequest(FRESH_FACTOR_REFUSED_MESSAGE, { secondFactorCode: FRESH_FACTOR_REFUSED_MESSAGE });
  return { data: null, message: PASSWORD_CHANGED_MESSAGE };
}
