import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db/database';

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
      sql<Hit>`
        insert into rate_limits as stored (key, hits, window_ends_at)
        values (${storedKey(this.route, key)}, 1, now() + make_interval(secs => ${timeWindowMs / 1000}))
        on conflict (key) do update set
          hits = case when stored.window_ends_at <= now() then 1 else stored.hits + 1 end,
          window_ends_at = case when stored.window_ends_at <= now() then excluded.window_ends_at else stored.window_ends_at end
        returning hits, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms`
        .execute(db)
        .then(({ rows: [row] }) => callback(null, { current: row?.hits ?? 1, ttl: row?.ttl_ms ?? timeWindowMs }))
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
