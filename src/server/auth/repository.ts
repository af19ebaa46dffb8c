import { sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { CodePurpose, NewUser, User } from '../db/schema';

// Every query of the auth domain: the users it signs in, their sessions, one-time codes,
// sign-in throttle and password reset links. Functions that lock a row demand a transaction.

// ---------------------------------------------------------------- users

/** The unique index on users.email (lower case by a CHECK). */
export const USERS_EMAIL_CONSTRAINT = 'users_email_key';

/** The open (not closed) account with this email, if any. */
export function findOpenUserByEmail(db: DB, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).where('closed_at', 'is', null).executeTakeFirst();
}

/** Whether any account, open or closed, has this email. */
export async function emailRegistered(db: DB, email: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

export function insertUser(db: DB, values: NewUser): Promise<User> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export function markEmailConfirmed(db: DB, userId: string): Promise<User> {
  return db
    .updateTable('users')
    .set({ is_email_confirmed: true, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setPasswordHash(db: DB, userId: string, passwordHash: string): Promise<User> {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- sign-in throttle (per email, registered or not)

export function findLoginThrottle(db: DB, email: string): Promise<{ failures: number; locked_until: Date | null } | undefined> {
  return db.selectFrom('login_throttle').select(['failures', 'locked_until']).where('email', '=', email).executeTakeFirst();
}

/** Counts one failed sign-in and answers the failures in a row; a lock that has run out starts the count again. */
export async function countLoginFailure(db: DB, email: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('login_throttle')
    .values({ email, failures: 1 })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({
        failures: sql`case when login_throttle.locked_until is not null and login_throttle.locked_until <= ${now} then 1 else login_throttle.failures + 1 end`,
        locked_until: sql`case when login_throttle.locked_until is not null and login_throttle.locked_until <= ${now} then null else login_throttle.locked_until end`,
        updated_at: sql`now()`,
      }),
    )
    .returning(['failures'])
    .executeTakeFirstOrThrow();
  return row.failures;
}

export async function lockSignIn(db: DB, email: string, lockedUntil: Date): Promise<void> {
  await db.updateTable('login_throttle').set({ locked_until: lockedUntil, failures: 0 }).where('email', '=', email).execute();
}

export async function clearLoginFailures(db: DB, email: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('email', '=', email).execute();
}

// ---------------------------------------------------------------- sessions (only the token's hash is stored)

export async function insertSession(
  db: DB,
  session: { userId: string; tokenHash: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ user_id: session.userId, token_hash: session.tokenHash, expires_at: session.expiresAt, user_agent: session.userAgent, ip: session.ip })
    .execute();
}

/**
 * The session of a token's hash with its user. Every signed-in request runs this: a prepared
 * statement, planned once per connection.
 */
export async function findSessionByTokenHash(db: DB, tokenHash: string) {
  const lookup = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.ended_at'])
    .where('sessions.token_hash', '=', tokenHash);
  const [row] = (await db.executeQuery(prepared(lookup.compile()))).rows;
  return row;
}

export async function touchSession(db: DB, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: sql`now()` })
    .where('id', '=', sessionId)
    .execute();
}

export async function endSession(db: DB, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every session of a user, or every one but `exceptSessionId`. */
export async function endUserSessions(db: DB, userId: string, exceptSessionId?: string | null): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

// ---------------------------------------------------------------- one-time codes (only a hash of binding and code is stored)

/** Earlier open codes of a purpose stop working. */
export async function retireOpenCodes(db: DB, userId: string, purpose: CodePurpose): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ consumed_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function insertCode(
  db: DB,
  code: { userId: string; purpose: CodePurpose; binding: string; codeHash: string; payload: Record<string, unknown> | null; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('one_time_codes')
    .values({
      user_id: code.userId,
      purpose: code.purpose,
      binding: code.binding,
      code_hash: code.codeHash,
      payload: code.payload ? JSON.stringify(code.payload) : null,
      expires_at: code.expiresAt,
    })
    .execute();
}

/** Locks the newest open code of a purpose (and binding, when given). Use inside a transaction. */
export function lockNewestOpenCode(trx: DB, where: { userId: string; purpose: CodePurpose; binding?: string | undefined }) {
  let query = trx
    .selectFrom('one_time_codes')
    .selectAll()
    .where('user_id', '=', where.userId)
    .where('purpose', '=', where.purpose)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1);
  if (where.binding !== undefined) query = query.where('binding', '=', where.binding);
  return query.forUpdate().executeTakeFirst();
}

/** Counts a wrong try; the last allowed one spends the code. */
export async function recordWrongCode(trx: DB, codeId: string, attempts: number, spent: boolean): Promise<void> {
  await trx
    .updateTable('one_time_codes')
    .set({ attempts, ...(spent ? { consumed_at: sql`now()` } : {}) })
    .where('id', '=', codeId)
    .execute();
}

export async function markCodeConsumed(trx: DB, codeId: string): Promise<void> {
  await trx
    .updateTable('one_time_codes')
    .set({ consumed_at: sql`now()` })
    .where('id', '=', codeId)
    .execute();
}

/** When the newest code of a purpose was issued (spent or not), to space out resends. */
export async function newestCodeIssuedAt(db: DB, userId: string, purpose: CodePurpose): Promise<Date | null> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.created_at) : null;
}

// ---------------------------------------------------------------- password reset links (only the token's hash is stored)

/** Only the newest link works: the open ones are marked used. */
export async function retireOpenResets(db: DB, userId: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertPasswordReset(db: DB, reset: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('password_resets').values({ user_id: reset.userId, token_hash: reset.tokenHash, expires_at: reset.expiresAt }).execute();
}

/** Locks the reset link of a token's hash. Use inside a transaction. */
export function lockPasswordReset(trx: DB, tokenHash: string) {
  return trx.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

export async function markResetUsed(trx: DB, resetId: string): Promise<void> {
  await trx
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('id', '=', resetId)
    .execute();
}

// ---------------------------------------------------------------- closing a customer

/** Closing a customer: their one-time codes, reset links and sign-in throttle go with them. */
export async function eraseCredentials(trx: DB, userId: string, email: string): Promise<void> {
  await trx.deleteFrom('one_time_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('login_throttle').where('email', '=', email).execute();
}

// ---------------------------------------------------------------- purges (jobs/purge.ts)

/** Sessions that ended, expired or went idle before `before`. Answers how many went. */
export async function deleteSessionsDeadBefore(db: DB, before: Date, idleMs: number): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('ended_at', '<', before), eb('expires_at', '<', before), eb('last_seen_at', '<', new Date(before.getTime() - idleMs))]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One-time codes that expired before `before` (used or not). */
export async function deleteCodesExpiredBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('one_time_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Password reset links that expired before `before` (used or not). */
export async function deleteResetsExpiredBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('password_resets').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
