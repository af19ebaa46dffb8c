import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { MONEY_CALL_KEY_PREFIX, MONEY_CALL_WINDOW_MS, type MoneyCallHit } from '../auth/repository';
import { type DB, prepared } from '../db/database';
import { rateLimited } from '../lib/errors';
import { COUNT_HIT_ON_CONFLICT } from '../lib/rate-limit-count';

/**
 * A route's `config` fragment for @fastify/rate-limit: at most `max` requests per minute from one
 * address (or per `keyGenerator` key). Use as `config: { access, ...perMinute(10) }`.
 */
export const perMinute = (max: number, keyGenerator?: (request: FastifyRequest) => string) => ({
  rateLimit: { max, timeWindow: 60_000, ...(keyGenerator ? { keyGenerator } : {}) },
});

/** How often one process deletes windows that ended (their keys were not seen again). */
const PURGE_INTERVAL_MS = 60_000;
/** A stored key longer than this (a long custom key) is stored as its hash. */
const STORED_KEY_CHARS_MAX = 200;

interface Hit {
  hits: number;
  ttl_ms: number;
}

interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

const storedKey = (route: string, key: string): string => {
  const full = `${route} ${key}`;
  return full.length <= STORED_KEY_CHARS_MAX ? full : `${route.slice(0, 80)} sha256:${createHash('sha256').update(key).digest('hex')}`;
};

/**
 * Counts one hit for a key in its current window (a new window starts when the stored one ended):
 * one upsert, timed by PostgreSQL's clock. Answers the hits so far in the window and its time left.
 */
export async function countHit(db: DB, key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
  // A prepared statement (one text for every key): every request of a limited route runs it.
  const upsert = sql<Hit>`
    insert into rate_limits as stored (key, hits, window_ends_at)
    values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    ${COUNT_HIT_ON_CONFLICT}`;
  const {
    rows: [row],
  } = await db.executeQuery(prepared(upsert.compile(db)));
  return { hits: row?.hits ?? 1, ttlMs: row?.ttl_ms ?? windowMs };
}

/**
 * @fastify/rate-limit's store, counted in the rate_limits table so that every process and every
 * instance on the database shares one count per route and key: one upsert per request, which
 * starts a new window when the stored one has ended. The windows are timed by PostgreSQL's clock,
 * the same for all processes. Rows whose window ended are deleted at most once a minute per process.
 * A database error fails the request (rate-limited routes are the ones worth refusing then).
 */
export function rateLimitStore(db: DB, log?: { warn(details: object, message: string): void }): FastifyRateLimitStoreCtor {
  let purgedAtMs = Date.now();
  const purge = () => {
    if (Date.now() - purgedAtMs < PURGE_INTERVAL_MS) return;
    purgedAtMs = Date.now();
    sql`delete from rate_limits where window_ends_at < now() - interval '1 minute'`
      .execute(db)
      .catch((error: unknown) => log?.warn({ err: error }, 'could not purge ended rate-limit windows'));
  };

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly route: string;

    constructor(params: unknown) {
      const info = (params as RouteParams).routeInfo;
      const method = Array.isArray(info?.method) ? info.method.join(',') : (info?.method ?? '');
      this.route = info?.url ? `${method} ${info.url}` : 'global';
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindowMs: number): void {
      purge();
      countHit(db, storedKey(this.route, key), timeWindowMs)
        .then((hit) => callback(null, { current: hit.hits, ttl: hit.ttlMs }))
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    }

    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      sql<Hit>`
        select hits, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms
        from rate_limits where key = ${storedKey(this.route, key)} and window_ends_at > now()`
        .execute(db)
        .then(({ rows: [row] }) => callback(null, { current: row?.hits ?? 0, ttl: row?.ttl_ms ?? 0 }))
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    }

    child(params: unknown): FastifyRateLimitStore {
      return new PostgresRateLimitStore(params);
    }
  }
  return PostgresRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A call that moves a customer's money: counted against MONEY_CALLS_PER_MINUTE for that customer. */
    moneyCall?: boolean;
  }
  interface FastifyRequest {
    /** The money call's hit, when the sign-in hook counted it with the session lookup (see moneyCallCounting). */
    moneyCallHit?: MoneyCallHit | null;
  }
}

/**
 * The sign-in hook's option for resolveSession: on a customer money call with the cap on, the
 * session lookup counts the hit in its own statement (one round trip instead of two on every
 * payment), and only when the session is live and its user passes the customer access check;
 * the hook below then checks the cap with that count. Anything else is counted by the hook.
 */
export function moneyCallCounting(request: FastifyRequest, context: Pick<AppContext, 'config'>): { countMoneyCall: boolean } {
  const config = request.routeOptions.config;
  return { countMoneyCall: context.config.rateLimits && config.moneyCall === true && config.access === 'customer' };
}
export const MONEY_CALLS_MESSAGE = 'Too many payments in a minute. Please wait a moment and try again.';

/**
 * The per-customer cap on money calls (ADR 016): every route declaring `config.moneyCall` counts one
 * hit for the signed-in customer in the rate_limits table (one upsert on the request's path, the
 * same statement as the per-address limits), and past MONEY_CALLS_PER_MINUTE answers 429 with
 * Retry-After until the customer's minute ends. Off with RATE_LIMITS=false. Runs after the sign-in
 * hook: only a customer who passed the route's access check is counted.
 */
export function registerMoneyCallLimit(api: FastifyInstance, context: Pick<AppContext, 'db' | 'config'>): void {
  if (!context.config.rateLimits) return;
  const cap = context.config.limits.moneyCallsPerMinute;
  api.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.moneyCall || !request.user) return;
    const { hits, ttlMs } = request.moneyCallHit ?? (await countHit(context.db, `${MONEY_CALL_KEY_PREFIX}${request.user.id}`, MONEY_CALL_WINDOW_MS));
    if (hits > cap) throw rateLimited(MONEY_CALLS_MESSAGE, Math.max(1, Math.ceil(ttlMs / 1000)));
  });
}
