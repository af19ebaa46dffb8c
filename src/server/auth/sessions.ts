import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../shared/limits';
import type { Actor, AppContext } from '../context';
import type { User } from '../db/schema';
import { newToken, sha256 } from './crypto';
import * as repository from './repository';

export { endSession, endUserSessions } from './repository';

/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 30_000;
const USER_AGENT_LENGTH_MAX = 300;

/** Opens a session for a user who proved who they are; answers its token (only its hash is stored). */
export async function createSession(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string, origin: Pick<Actor, 'ip' | 'userAgent'>): Promise<string> {
  const token = newToken();
  await repository.insertSession(ctx.db, {
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(ctx.clock.now().getTime() + SESSION_ABSOLUTE_MS),
    userAgent: origin.userAgent?.slice(0, USER_AGENT_LENGTH_MAX) ?? null,
    ip: origin.ip,
  });
  return token;
}

/**
 * The session of a token, if it is live: not ended, not past its idle or absolute expiry, and its
 * user neither disabled nor closed (such a session is ended on the spot).
 */
export async function resolveSession(ctx: Pick<AppContext, 'db' | 'clock'>, token: string): Promise<{ id: string; user: User } | null> {
  if (token.length > 200) return null;
  const row = await repository.findSessionByTokenHash(ctx.db, sha256(token));
  if (!row || row.ended_at) return null;
  const now = ctx.clock.now().getTime();
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (new Date(row.expires_at).getTime() <= now || lastSeen + SESSION_IDLE_MS <= now || row.is_account_disabled || row.closed_at) {
    await repository.endSession(ctx.db, row.session_id);
    return null;
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) await repository.touchSession(ctx.db, row.session_id);
  const { session_id, last_seen_at: _seen, expires_at: _expires, ended_at: _ended, ...user } = row;
  return { id: session_id, user };
}
