import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { type DB, prepared } from '../db/database';
import { type CodePurpose, type Database, type NewUser, SESSION_USER_COLUMNS, type SignInScope, type User } from '../db/schema';
import { assert } from '../lib/errors';

/** Compiles queries without a connection (compiledOnce below). */
const dummyDb: DB = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

// Every query of the auth domain: the users it signs in, their sessions, one-time codes,
// sign-in throttle and password reset links. Functions that lock a row demand a transaction.

/** The throttle subject of an account (the email, registered or not) and of an address. */
export const accountSubject = (email: string) => `account:${email}`;
export const addressSubject = (ip: string) => `address:${ip}`;

// ---------------------------------------------------------------- users

/** The unique index on users.email (lower case by a CHECK). */
export const USERS_EMAIL_CONSTRAINT = 'users_email_key';

/** The open (not closed) account with this email, if any. */
export function findOpenUserByEmail(db: DB, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).where('closed_at', 'is', null).executeTakeFirst();
}

/**
 * Inserts a user unless the email is taken (by anyone, two sign-ups at the same moment included:
 * the unique index decides); answers the new user, or undefined when the email was taken.
 */
export function insertUserUnlessEmailTaken(db: DB, values: NewUser): Promise<User | undefined> {
  return db
    .insertInto('users')
    .values(values)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function markEmailConfirmed(db: DB, userId: string): Promise<User> {
  return db
    .updateTable('users')
    .set({ is_email_confirmed: true, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A user's password hash, read only where a password is checked (a request's user never carries it). */
export async function passwordHashOf(db: DB, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst())?.password_hash;
}

export function setPasswordHash(db: DB, userId: string, passwordHash: string): Promise<User> {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- sign-in throttle (per account or address, per scope)

export interface ThrottleRow {
  failures: number;
  last_failure_at: Date | null;
  blocked_until: Date | null;
}

/** Locks the throttle row of a subject, made empty first if it has none. Use inside a transaction. */
export async function lockThrottle(trx: DB, scope: SignInScope, subject: string): Promise<ThrottleRow> {
  await trx
    .insertInto('sign_in_throttle')
    .values({ scope, subject })
    .onConflict((conflict) => conflict.columns(['scope', 'subject']).doNothing())
    .execute();
  return trx
    .selectFrom('sign_in_throttle')
    .select(['failures', 'last_failure_at', 'blocked_until'])
    .where('scope', '=', scope)
    .where('subject', '=', subject)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function setThrottle(trx: DB, scope: SignInScope, subject: string, row: ThrottleRow): Promise<void> {
  await trx.updateTable('sign_in_throttle').set(row).where('scope', '=', scope).where('subject', '=', subject).execute();
}

export function findThrottle(db: DB, scope: SignInScope, subject: string): Promise<ThrottleRow | undefined> {
  return db
    .selectFrom('sign_in_throttle')
    .select(['failures', 'last_failure_at', 'blocked_until'])
    .where('scope', '=', scope)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** Forgets a subject's failures, in one scope or in all. */
export async function clearThrottle(db: DB, subject: string, scope?: SignInScope): Promise<void> {
  let query = db.deleteFrom('sign_in_throttle').where('subject', '=', subject);
  if (scope) query = query.where('scope', '=', scope);
  await query.execute();
}

/** Whether a user signed in from this device (the SHA-256 of its ll_device cookie) before. */
export async function isKnownDevice(db: DB, userId: string, tokenHash: string): Promise<boolean> {
  const row = await db.selectFrom('known_devices').select('id').where('user_id', '=', userId).where('token_hash', '=', tokenHash).executeTakeFirst();
  return row !== undefined;
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

/** The session lookup's query: a session with its user, for the token hash `asked.token_hash` (see findSessions). */
function sessionLookup(db: DB) {
  return (
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(SESSION_USER_COLUMNS.map((column) => `users.${column}` as const))
      .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.ended_at'])
      // Staff without a second factor may only enrol one (ADR 011); customers never pay for the check.
      .select(
        sql<boolean>`case when users.is_admin then not exists (select 1 from passkeys where passkeys.user_id = users.id)
        and not exists (select 1 from totp_factors where totp_factors.user_id = users.id and totp_factors.confirmed_at is not null)
        else false end`.as('second_factor_missing'),
      )
      .where(sql<boolean>`sessions.token_hash = asked.token_hash`)
  );
}

/** A session with its user, as the lookup reads it (and the session cache keeps it). */
export type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionLookup>['executeTakeFirst']>>>;

/**
 * A query of constant text compiled once (kysely builds and compiles a query on every call
 * otherwise): each call only swaps the values. For the statements every signed-in request runs.
 */
function compiledOnce<Args extends unknown[], R>(build: (...args: Args) => { compile(): CompiledQuery<R> }, sample: Args) {
  let compiled: CompiledQuery<R> | null = null;
  return (values: unknown[]): CompiledQuery<R> => {
    if (!compiled) {
      compiled = prepared(build(...sample).compile());
      // The text takes the sample's values in the order given: callers pass theirs in that order.
      assert(
        compiled.parameters.length === sample.length && compiled.parameters.every((value, index) => value === sample[index]),
        'parameters in sample order',
      );
    }
    assert(values.length === sample.length, 'one value per parameter of the compiled query');
    return { ...compiled, parameters: values };
  };
}

/** The money-call counter's key of a customer (plugins/rate-limit.ts counts it, ADR 016). */
export const MONEY_CALL_KEY_PREFIX = 'money-calls user:';
/** The money-call counter's window (ADR 016): MONEY_CALLS_PER_MINUTE counts calls in it. */
export const MONEY_CALL_WINDOW_MS = 60_000;

/**
 * The sessions of several tokens' hashes with their users, in one statement (concurrent requests
 * that miss the session cache share it: see resolveSession): a prepared statement, planned once
 * per connection, compiled once per process. Answers one row (or nothing) per hash, in order.
 */
export async function findSessions(db: DB, tokenHashes: readonly string[]): Promise<(SessionRow | undefined)[]> {
  const asked = tokenHashes.map((tokenHash, index) => ({ ord: index + 1, token_hash: tokenHash }));
  const { rows } = await db.executeQuery(sessionsQuery([JSON.stringify(asked)]));
  const found: (SessionRow | undefined)[] = tokenHashes.map(() => undefined);
  for (const { ord, ...row } of rows) found[ord - 1] = row;
  return found;
}

const sessionsQuery = compiledOnce(
  (asked: string) => ({
    compile: () =>
      sql<SessionRow & { ord: number }>`
      select asked.ord, session.*
      from jsonb_to_recordset(${asked}::jsonb) as asked (ord int, token_hash text)
      cross join lateral (${sessionLookup(dummyDb)}) as session`.compile(dummyDb),
  }),
  // The asks as JSON rows rather than arrays: the planner counts the elements of an array
  // (unnest) in every custom plan, and so planned this statement anew on every call (0.4 ms,
  // four times its execution); a JSON set is 100 rows to it whatever it holds, so PostgreSQL keeps
  // one generic plan, which is the same plan (an index lookup per token) for one token or two hundred.
  ['[]'],
);

/** The user's live sessions (not ended, not past their absolute or idle expiry), newest first. */
export function listLiveSessions(db: DB, userId: string, now: Date, idleSince: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .limit(SESSIONS_LISTED_MAX)
    .execute();
}

/** A user never has more live sessions listed than this (each sign-in opens one; they idle out in minutes). */
export const SESSIONS_LISTED_MAX = 100;

/** Ends one open session of a user; answers what it was, or undefined when the user has no such open session. */
export function endSessionOf(db: DB, userId: string, sessionId: string) {
  return db
    .updateTable('sessions')
    .set({ ended_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .returning(['id', 'created_at', 'last_seen_at', 'user_agent', 'ip'])
    .executeTakeFirst();
}

/** Whether the user ever had a session (the sign-in right after sign-up is the first). */
export async function hadSession(db: DB, userId: string): Promise<boolean> {
  return (await db.selectFrom('sessions').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;
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

/** Ends every session of a user, or every one but `exceptSessionId`; answers how many it ended. */
export async function endUserSessions(db: DB, userId: string, exceptSessionId?: string | null): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---------------------------------------------------------------- known devices (only the device cookie's hash is stored)

/** Records a device for a user; answers true when it was not known before. */
export async function rememberDevice(db: DB, userId: string, tokenHash: string): Promise<boolean> {
  const inserted = await db
    .insertInto('known_devices')
    .values({ user_id: userId, token_hash: tokenHash })
    .onConflict((conflict) => conflict.columns(['user_id', 'token_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findUserById(db: DB, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
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
  code: {
    userId: string;
    purpose: CodePurpose;
    binding: string;
    codeHash: string;
    payload: Record<string, unknown> | null;
    expiresAt: Date;
    /** The issuer's clock (caps count codes by it); the database's when not given. */
    createdAt?: Date;
  },
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
      ...(code.createdAt ? { created_at: code.createdAt } : {}),
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

/** Only the newest link works: the open ones of the email's account (if any) are marked used. */
export async function retireOpenResets(db: DB, email: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('user_id', 'in', db.selectFrom('users').select('id').where('email', '=', email))
    .where('used_at', 'is', null)
    .execute();
}

/**
 * A reset link for the open, enabled account of an email, if there is one: one statement that
 * inserts one row or none, so a request for an unknown email runs the same work as for a known one.
 */
export async function insertPasswordResetFor(db: DB, reset: { email: string; tokenHash: string; expiresAt: Date }): Promise<boolean> {
  const inserted = await db
    .insertInto('password_resets')
    .columns(['user_id', 'token_hash', 'expires_at'])
    .expression(
      db
        .selectFrom('users')
        .select(['id', sql<string>`${reset.tokenHash}::text`.as('token_hash'), sql<Date>`${reset.expiresAt}::timestamptz`.as('expires_at')])
        .where('email', '=', reset.email)
        .where('closed_at', 'is', null)
        .where('is_account_disabled', '=', false),
    )
    .returning('id')
    .execute();
  return inserted.length > 0;
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

/** Closing a customer: their one-time codes, reset links, sign-in tickets and throttle go with them. */
export async function eraseCredentials(trx: DB, userId: string, email: string): Promise<void> {
  await trx.deleteFrom('one_time_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sign_in_tickets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sign_in_throttle').where('subject', '=', accountSubject(email)).execute();
  await trx.deleteFrom('known_devices').where('user_id', '=', userId).execute();
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

/** Sign-in throttle rows whose last failure is older than `before` and whose wait is over. */
export async function deleteThrottlesIdleBefore(db: DB, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('sign_in_throttle')
    .where((eb) => eb.or([eb('last_failure_at', '<', before), eb('last_failure_at', 'is', null)]))
    .where((eb) => eb.or([eb('blocked_until', '<', before), eb('blocked_until', 'is', null)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Password reset links that expired before `before` (used or not). */
export async function deleteResetsExpiredBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('password_resets').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
