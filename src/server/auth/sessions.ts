import {
  OTHER_SESSIONS_ENDED_MESSAGE,
  SESSION_ENDED_MESSAGE,
  SESSION_NOT_FOUND_MESSAGE,
  type SessionDto,
  type SessionsEnded,
} from '../../shared/contracts/sessions';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../shared/limits';
import type { Actor, ActorContext, AppContext } from '../context';
import type { SessionUser, User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { batched } from '../lib/batched';
import { busy, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { describeUserAgent } from '../lib/user-agent';
import { notify } from '../notifications/service';
import { newToken, sha256 } from './crypto';
import * as repository from './repository';

export { endSession, endUserSessions } from './repository';

/**
 * last_seen_at is written at most this often per session, so reads do not turn into writes; the
 * idle timeout therefore counts from up to this long before the last request (see idleSecondsLeft).
 */
export const TOUCH_INTERVAL_MS = 60_000;
const USER_AGENT_LENGTH_MAX = 300;

/** Where a sign-in comes from; `deviceToken` is the browser's ll_device cookie (see plugins/auth.ts). */
export type SessionOrigin = Pick<Actor, 'ip' | 'userAgent'> & { deviceToken?: string | null };

type SignInContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

/**
 * Opens a session for a user who proved who they are; answers its token (only its hash is stored).
 * Every sign-in calls signInSession instead, which also tells the customer about a new device;
 * this alone is for tools that open sessions without anyone signing in (benchmarks, tests).
 */
export async function createSession(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string, origin: SessionOrigin): Promise<string> {
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
 * The session of a sign-in (any way of signing in): opened, and its device remembered or announced,
 * in one transaction: the session, the remembered device and the new-device notice (and its mail
 * in the outbox) commit together or not at all.
 */
export async function signInSession(ctx: SignInContext, userId: string, origin: SessionOrigin): Promise<string> {
  return inTransaction(ctx.db, async (db) => {
    const trx = { ...ctx, db };
    const seenBefore = await repository.hadSession(db, userId);
    const token = await createSession(trx, userId, origin);
    await noteDevice(trx, userId, origin, seenBefore);
    return token;
  });
}

/**
 * Remembers the device a user signs in from and emails them when it is one they have not used
 * before. The sign-in right after sign-up (the user's first session ever) is not announced: the
 * customer has just opened the account from there. A client that keeps no cookies (an API script)
 * is a new device at every sign-in, and each is announced; that is the price of not trusting what
 * a client merely claims to be (its user agent).
 */
async function noteDevice(ctx: SignInContext, userId: string, origin: SessionOrigin, seenBefore: boolean) {
  const deviceToken = origin.deviceToken ?? newToken();
  const deviceHash = sha256(deviceToken);
  const isNew = await repository.rememberDevice(ctx.db, userId, deviceHash);
  if (!isNew || !seenBefore) return;
  // Always on, whatever the customer's notification choices: the same email as ever (staff get it
  // too), and for customers an item in the app (issue 14).
  await notify(ctx, {
    kind: 'new_device_sign_in',
    userId,
    key: `device:${deviceHash}`,
    device: describeUserAgent(origin.userAgent),
    ip: origin.ip,
    at: ctx.clock.now(),
  });
}

/** The session's live state, if it is live, with how many seconds of idleness it has left. */
export interface LiveSession {
  id: string;
  user: SessionUser;
  idleSecondsLeft: number;
  /** A staff member without a second factor: the session may only enrol one (ADR 011). */
  enrolOnly: boolean;
}

/** A staff member whose back office access is suspended (or not yet accepted) holds no session (ADR 022). */
export function staffAccessEnded(user: Pick<User, 'is_admin' | 'staff_status'>): boolean {
  return user.is_admin && user.staff_status !== 'active';
}

/** How many session lookups one process has out at once; the requests that arrive meanwhile share the next. */
const SESSION_LOOKUPS_IN_FLIGHT = 1;
/** At most this many tokens in one lookup statement. */
const SESSION_LOOKUP_BATCH_MAX = 200;
/** Requests waiting for a lookup; past this (PostgreSQL stalled, or far more load than it answers) the bank answers 503 at once. */
export const SESSION_LOOKUPS_WAITING_MAX = 10_000;
const lookups = new WeakMap<AppContext['db'], (tokenHash: string) => Promise<repository.SessionRow | undefined>>();

/**
 * Looks a token up with the requests of the same moment (ADR 008): a request that misses the
 * session cache waits for nothing when no lookup is out; under load, one statement answers many.
 */
function lookup(db: AppContext['db'], tokenHash: string): Promise<repository.SessionRow | undefined> {
  let batch = lookups.get(db);
  if (!batch) {
    batch = batched((hashes: string[]) => repository.findSessions(db, hashes), {
      inFlight: SESSION_LOOKUPS_IN_FLIGHT,
      max: SESSION_LOOKUP_BATCH_MAX,
      waitingMax: SESSION_LOOKUPS_WAITING_MAX,
      refuse: busy,
    });
    lookups.set(db, batch);
  }
  return batch(tokenHash);
}

/** A session may be served from the cache while its idle touch is not due and it has not expired. */
const servable = (row: repository.SessionRow, now: number) =>
  now - new Date(row.last_seen_at).getTime() < TOUCH_INTERVAL_MS && new Date(row.expires_at).getTime() > now;

/**
 * The session of a token, if it is live: not ended, not past its idle or absolute expiry, and its
 * user neither disabled nor closed nor suspended staff (such a session is ended on the spot).
 * Served from the process's session cache when it holds the token and may serve it (see
 * SessionCache); otherwise looked up, and a live session is cached for the next request.
 */
export async function resolveSession(ctx: Pick<AppContext, 'db' | 'clock' | 'sessions'>, token: string): Promise<LiveSession | null> {
  if (token.length > 200) return null;
  const now = ctx.clock.now().getTime();
  const tokenHash = sha256(token);
  let row = ctx.sessions.get(tokenHash);
  if (!row || !servable(row, now)) {
    const generation = ctx.sessions.begin();
    row = await lookup(ctx.db, tokenHash);
    if (!row || row.ended_at) {
      ctx.sessions.drop(tokenHash);
      return null;
    }
    const lastSeen = new Date(row.last_seen_at).getTime();
    if (new Date(row.expires_at).getTime() <= now || lastSeen + SESSION_IDLE_MS <= now || row.is_account_disabled || row.closed_at || staffAccessEnded(row)) {
      await repository.endSession(ctx.db, row.session_id);
      return null;
    }
    if (now - lastSeen >= TOUCH_INTERVAL_MS) {
      await repository.touchSession(ctx.db, row.session_id);
      row = { ...row, last_seen_at: new Date(now) };
    }
    ctx.sessions.fill(generation, tokenHash, row);
  }
  const { session_id, last_seen_at, expires_at: _expires, ended_at: _ended, second_factor_missing, ...user } = row;
  return {
    id: session_id,
    user,
    idleSecondsLeft: Math.floor((new Date(last_seen_at).getTime() + SESSION_IDLE_MS - now) / 1000),
    enrolOnly: second_factor_missing === true,
  };
}

type SessionRow = Awaited<ReturnType<typeof repository.listLiveSessions>>[number];

function toSessionDto(row: SessionRow, currentSessionId: string | null): SessionDto {
  return {
    id: row.id,
    current: row.id === currentSessionId,
    device: describeUserAgent(row.user_agent),
    ipAddress: row.ip,
    createdAt: new Date(row.created_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
  };
}

/** A user's live sessions, newest use first; `currentSessionId` is marked as this one. */
export async function sessionsOf(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string, currentSessionId: string | null): Promise<SessionDto[]> {
  const now = ctx.clock.now();
  const rows = await repository.listLiveSessions(ctx.db, userId, now, new Date(now.getTime() - SESSION_IDLE_MS));
  return rows.map((row) => toSessionDto(row, currentSessionId));
}

/** Ends one open session of the user's; another user's (or an ended one) is not found. Answers what was ended. */
export async function endSessionOf(ctx: Pick<AppContext, 'db'>, userId: string, sessionId: string): Promise<SessionDto> {
  const ended = await repository.endSessionOf(ctx.db, userId, sessionId);
  if (!ended) throw notFound(SESSION_NOT_FOUND_MESSAGE);
  return toSessionDto(ended, null);
}

// ---------------------------------------------------------------- the signed-in user's own sessions

export async function listMySessions(ctx: ActorContext): Promise<SessionDto[]> {
  return sessionsOf(ctx, ctx.actor.user.id, ctx.actor.sessionId);
}

export async function endMySession(ctx: ActorContext, sessionId: string): Promise<Outcome<SessionsEnded>> {
  await endSessionOf(ctx, ctx.actor.user.id, sessionId);
  return { data: { ended: 1 }, message: SESSION_ENDED_MESSAGE };
}

export async function endMyOtherSessions(ctx: ActorContext): Promise<Outcome<SessionsEnded>> {
  const ended = await repository.endUserSessions(ctx.db, ctx.actor.user.id, ctx.actor.sessionId);
  return { data: { ended }, message: OTHER_SESSIONS_ENDED_MESSAGE };
}
