import { sql } from 'kysely';
// eslint-disable-next-line no-restricted-imports -- TRANSITION: the auth domain is converted next
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ZSignUpRequest } from '../../shared/contracts/auth';
import { EMAIL_CODE_TTL_MS, LOGIN_FAILURES_MAX, LOGIN_LOCK_MS, PASSWORD_RESET_TTL_MS, RESEND_INTERVAL_MS } from '../../shared/limits';
import type { DB } from '../db/database';
import type { User } from '../db/schema';
import { AppError, badRequest } from '../lib/errors';
import { openCustomerAccounts } from '../ledger/accounts';
import { accountLockedMail, passwordChangedMail, passwordResetMail, verificationCodeMail } from '../mail/templates';
import { consumeCode, issueCode } from './codes';
import { hashPassword, isCommonPassword, newToken, sha256, verifyAgainstDummy, verifyPassword } from './crypto';
import { createSession, endUserSessions } from './sessions';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const LOCKED_MESSAGE = 'Too many failed sign-in attempts. Sign-in is locked for 15 minutes; check your email.';
export const DISABLED_MESSAGE = 'This account has been disabled. Please contact support.';
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less predictable one.';

const brand = (app: FastifyInstance) => ({ bankName: app.config.bankName, publicUrl: app.config.publicUrl });

export function assertPasswordAllowed(password: string): void {
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE, { password: COMMON_PASSWORD_MESSAGE });
}

export async function sendVerificationCode(app: FastifyInstance, user: User): Promise<void> {
  const code = await issueCode(app.db, { userId: user.id, purpose: 'email_verification', binding: user.email, ttlMs: EMAIL_CODE_TTL_MS });
  await app.mailer.send(verificationCodeMail(brand(app), user.email, user.first_name, code));
}

export async function signUp(app: FastifyInstance, input: z.output<typeof ZSignUpRequest>): Promise<User> {
  assertPasswordAllowed(input.password);
  const passwordHash = await hashPassword(input.password);
  const user = await app.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    if (existing) throw new AppError('conflict', 'An account with this email already exists. Please sign in instead.', { email: 'Email already registered' });
    const created = await trx
      .insertInto('users')
      .values({
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
      })
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch((error: { code?: string }) => {
        if (error.code === '23505') throw new AppError('conflict', 'An account with this email already exists. Please sign in instead.');
        throw error;
      });
    await openCustomerAccounts(trx, created.id);
    return created;
  });
  try {
    await sendVerificationCode(app, user);
  } catch (error) {
    // The account exists; the customer can ask for the code again from the verification page.
    app.log.error({ err: error }, 'verification email failed');
  }
  return user;
}

async function recordFailure(app: FastifyInstance, email: string, user: User | undefined): Promise<void> {
  const row = await app.db
    .insertInto('login_throttle')
    .values({ email, failures: 1 })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({
        failures: sql`case when login_throttle.locked_until is not null and login_throttle.locked_until <= now() then 1 else login_throttle.failures + 1 end`,
        locked_until: sql`case when login_throttle.locked_until is not null and login_throttle.locked_until <= now() then null else login_throttle.locked_until end`,
        updated_at: sql`now()`,
      }),
    )
    .returning(['failures'])
    .executeTakeFirstOrThrow();
  if (row.failures >= LOGIN_FAILURES_MAX) {
    await app.db
      .updateTable('login_throttle')
      .set({ locked_until: new Date(Date.now() + LOGIN_LOCK_MS), failures: 0 })
      .where('email', '=', email)
      .execute();
    if (user) {
      await app.mailer.send(accountLockedMail(brand(app), user.email, user.first_name)).catch((error: unknown) => {
        app.log.error({ err: error }, 'lock email failed');
      });
    }
    throw new AppError('locked', LOCKED_MESSAGE);
  }
}

export async function signIn(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { email: string; password: string },
  options: { adminOnly?: boolean } = {},
): Promise<{ token: string; user: User }> {
  const throttle = await app.db.selectFrom('login_throttle').selectAll().where('email', '=', input.email).executeTakeFirst();
  if (throttle?.locked_until && new Date(throttle.locked_until).getTime() > Date.now()) {
    throw new AppError('locked', LOCKED_MESSAGE);
  }
  const user = await app.db.selectFrom('users').selectAll().where('email', '=', input.email).where('closed_at', 'is', null).executeTakeFirst();
  const valid = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !valid || (options.adminOnly && !user.is_admin)) {
    await recordFailure(app, input.email, user);
    throw new AppError('unauthorized', INVALID_CREDENTIALS);
  }
  if (user.is_account_disabled) throw new AppError('forbidden', DISABLED_MESSAGE);
  await app.db.deleteFrom('login_throttle').where('email', '=', input.email).execute();
  const token = await createSession(app.db, user.id, { userAgent: request.headers['user-agent'], ip: request.ip });
  return { token, user };
}

export async function verifyEmail(app: FastifyInstance, user: User, otp: string): Promise<User> {
  if (user.is_email_confirmed) return user;
  await consumeCode(app.db, {
    userId: user.id,
    purpose: 'email_verification',
    binding: user.email,
    code: otp,
    messages: { wrong: 'Invalid verification code.', expired: 'This code has expired. Please ask for a new one.' },
  });
  return app.db
    .updateTable('users')
    .set({ is_email_confirmed: true, updated_at: sql`now()` })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function resendVerificationCode(app: FastifyInstance, user: User): Promise<void> {
  if (user.is_email_confirmed) throw badRequest('Your email is already verified.');
  const last = await app.db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', user.id)
    .where('purpose', '=', 'email_verification')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && Date.now() - new Date(last.created_at).getTime() < RESEND_INTERVAL_MS) {
    throw new AppError('rate_limited', 'Please wait a minute before asking for another code.');
  }
  await sendVerificationCode(app, user);
}

/** Always answers the same way, so the form never reveals whether an email has an account. */
export async function requestPasswordReset(app: FastifyInstance, email: string): Promise<void> {
  const user = await app.db.selectFrom('users').selectAll().where('email', '=', email).where('closed_at', 'is', null).executeTakeFirst();
  if (!user || user.is_account_disabled) return;
  const token = newToken();
  await app.db.transaction().execute(async (trx) => {
    // Only the newest link works.
    await trx
      .updateTable('password_resets')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('password_resets')
      .values({ user_id: user.id, token_hash: sha256(token), expires_at: new Date(Date.now() + PASSWORD_RESET_TTL_MS) })
      .execute();
  });
  const link = `${app.config.publicUrl}/forgot-password?token=${token}`;
  await app.mailer.send(passwordResetMail(brand(app), user.email, user.first_name, link));
}

export async function resetPassword(app: FastifyInstance, token: string, password: string): Promise<void> {
  assertPasswordAllowed(password);
  const passwordHash = await hashPassword(password);
  const user = await app.db.transaction().execute(async (trx) => {
    const reset = await trx.selectFrom('password_resets').selectAll().where('token_hash', '=', sha256(token)).forUpdate().executeTakeFirst();
    if (!reset || reset.used_at || new Date(reset.expires_at).getTime() <= Date.now()) {
      throw badRequest('The reset link is invalid or has expired. Please ask for a new one.');
    }
    await trx
      .updateTable('password_resets')
      .set({ used_at: sql`now()` })
      .where('id', '=', reset.id)
      .execute();
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where('id', '=', reset.user_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await endUserSessions(trx, updated.id);
    await trx.deleteFrom('login_throttle').where('email', '=', updated.email).execute();
    return updated;
  });
  await app.mailer.send(passwordChangedMail(brand(app), user.email, user.first_name)).catch(() => undefined);
}

export async function changePassword(app: FastifyInstance, user: User, sessionId: string, oldPassword: string, newPassword: string): Promise<void> {
  if (!(await verifyPassword(user.password_hash, oldPassword)))
    throw badRequest('Your current password is not correct.', { oldPassword: 'Incorrect password' });
  if (oldPassword === newPassword) throw badRequest('The new password must be different from the current one.');
  assertPasswordAllowed(newPassword);
  const passwordHash = await hashPassword(newPassword);
  await app.db.transaction().execute(async (trx: DB) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where('id', '=', user.id)
      .execute();
    await endUserSessions(trx, user.id, sessionId);
  });
  await app.mailer.send(passwordChangedMail(brand(app), user.email, user.first_name)).catch(() => undefined);
}
