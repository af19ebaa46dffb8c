import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../shared/limits';
import { type DB, prepared } from '../db/database';
import type { User } from '../db/schema';
import { AppError, forbidden, unauthorized } from '../lib/errors';
import { newToken, sha256 } from './crypto';

export const SESSION_COOKIE = 'll_session';
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 30_000;

export async function createSession(db: DB, userId: string, meta: { userAgent?: string; ip?: string }): Promise<string> {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + SESSION_ABSOLUTE_MS),
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip ?? null,
    })
    .execute();
  return token;
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
export async function endUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.publicUrl.startsWith('https://'),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * The session of a token, if it is live: not ended, not past its idle or absolute expiry, and its
 * user neither disabled nor closed (such a session is ended on the spot). Every signed-in request
 * runs this: a prepared statement, planned once per connection.
 */
export async function resolveSession(db: DB, token: string): Promise<{ id: string; user: User } | null> {
  if (token.length > 200) return null;
  const lookup = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.ended_at'])
    .where('sessions.token_hash', '=', sha256(token));
  const [row] = (await db.executeQuery(prepared(lookup.compile()))).rows;
  if (!row || row.ended_at) return null;
  const now = Date.now();
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (new Date(row.expires_at).getTime() <= now || lastSeen + SESSION_IDLE_MS <= now || row.is_account_disabled || row.closed_at) {
    await endSession(db, row.session_id);
    return null;
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()` })
      .where('id', '=', row.session_id)
      .execute();
  }
  const { session_id, last_seen_at: _seen, expires_at: _expires, ended_at: _ended, ...user } = row;
  return { id: session_id, user: user as User };
}

/** Any signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized();
}

/** A signed-in customer whose email is confirmed. */
export async function requireCustomer(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized();
  if (request.user.is_admin) throw forbidden('This is for customers. Admins use the back office.');
  if (!request.user.is_email_confirmed) throw new AppError('forbidden', 'Please verify your email address first.');
}

export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized();
  if (!request.user.is_admin) throw forbidden('Only bank staff can do this.');
}

/** The signed-in user; use after a guard. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
