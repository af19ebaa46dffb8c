import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { MONEY_CALL_KEY_PREFIX, MONEY_CALL_WINDOW_MS } from '../auth/repository';
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

/** A money call's place in its customer's count, and the time left in the customer's window. */
export interface MoneyCallHit {
  hits: number;
  ttlMs: number;
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
  // The money-call counter's statement with one key: one prepared text for every counter.
  const [hit] = await countHits(db, [{ key, hits: 1 }], windowMs);
  return hit ?? { hits: 1, ttlMs: windowMs };
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
}

export const MONEY_CALLS_MESSAGE = 'Too many payments in a minute. Please wait a moment and try again.';

/** How often a process adds the money calls it counted to the shared counters. */
export const MONEY_CALL_FLUSH_MS = 100;

interface CustomerCount {
  /** The shared count as the last flush answered it (every process's calls up to then). */
  known: number;
  /** When that window ends, by this process's clock (0: no window known). */
  windowEndsAt: number;
  /** Calls sent in the flush under way, not yet in `known`. */
  sending: number;
  /** Calls counted here and not sent yet. */
  pending: number;
  /** Calls waiting for the shared count before they are answered (no window was known); `nth` among `pending`. */
  waiters: Array<{ nth: number; resolve: (hit: MoneyCallHit) => void; reject: (error: unknown) => void }>;
}

/**
 * The per-customer money-call counts of one process (ADR 016): a call is counted at once in the
 * process and answered its place in the count (the shared count last heard plus this process's
 * calls since), and the process adds its calls to the shared counter in rate_limits every
 * MONEY_CALL_FLUSH_MS, one statement for every customer, off the request's path. A customer's first
 * call in a window (no shared count known) waits for that statement, so a process that has just
 * started, or that this customer has not used for a minute, learns the count before it answers.
 * In one process the cap is exact; with several, a process learns the others' calls at its next
 * flush, so a customer may pass the cap by what the other processes let through in one interval.
 */
export class MoneyCallCounter {
  private readonly customers = new Map<string, CustomerCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: DB,
    private readonly log?: { warn(details: object, message: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a call of this customer's: its place in the window's count, and the window's time left. */
  hit(userId: string): MoneyCallHit | Promise<MoneyCallHit> {
    const now = this.now();
    let count = this.customers.get(userId);
    if (!count) this.customers.set(userId, (count = { known: 0, windowEndsAt: 0, sending: 0, pending: 0, waiters: [] }));
    if (count.windowEndsAt <= now && count.sending === 0) {
      // The window is over (or was never heard of): the next flush says where the new one stands.
      count.known = 0;
      count.windowEndsAt = 0;
    }
    count.pending += 1;
    if (count.windowEndsAt === 0) {
      // Its place among the calls the next flush sends, which answers where they stand.
      const nth = count.pending;
      const waiting = count;
      this.schedule(0);
      return new Promise((resolve, reject) => waiting.waiters.push({ nth, resolve, reject }));
    }
    this.schedule(MONEY_CALL_FLUSH_MS);
    return { hits: count.known + count.sending + count.pending, ttlMs: count.windowEndsAt - now };
  }

  /** Sends what was counted now (tests; and at close). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    const sent = [...this.customers].filter(([, count]) => count.pending > 0);
    if (sent.length === 0) return;
    const batch = sent.map(([userId, count]) => {
      const waiters = count.waiters.splice(0);
      const calls = count.pending;
      count.sending += calls;
      count.pending = 0;
      return { userId, count, calls, waiters };
    });
    this.flushing = (async () => {
      try {
        const answers = await countHits(
          this.db,
          batch.map(({ userId, calls }) => ({ key: `${MONEY_CALL_KEY_PREFIX}${userId}`, hits: calls })),
          MONEY_CALL_WINDOW_MS,
        );
        const now = this.now();
        batch.forEach(({ count, calls, waiters }, index) => {
          const answer = answers[index] ?? { hits: calls, ttlMs: MONEY_CALL_WINDOW_MS };
          count.sending -= calls;
          count.known = answer.hits;
          count.windowEndsAt = now + answer.ttlMs;
          // The calls that waited are the first `calls` of the statement's, in the order they came.
          for (const waiter of waiters) waiter.resolve({ hits: answer.hits - calls + waiter.nth, ttlMs: answer.ttlMs });
        });
      } catch (error) {
        // Not lost: counted again with the next flush; calls that waited are refused (503).
        for (const { count, calls, waiters } of batch) {
          // The calls already answered go first in the next flush, ahead of any that came since.
          const again = calls - waiters.length;
          count.sending -= calls;
          count.pending += again;
          for (const later of count.waiters) later.nth += again;
          for (const waiter of waiters) waiter.reject(error);
        }
        this.log?.warn({ err: error }, 'could not add money calls to the shared count; trying again');
        this.schedule(MONEY_CALL_FLUSH_MS);
      } finally {
        this.flushing = null;
        this.prune();
      }
    })();
    await this.flushing;
  }

  /** Stops the timer and sends what is left, once (the pool is closing after it). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush().catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    // Closed: no more rounds, but a call that waits for the count is still sent (it would hang).
    if (this.closed && delayMs > 0) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  /** Customers whose window is over and who have nothing under way are forgotten. */
  private prune(): void {
    const now = this.now();
    for (const [userId, count] of this.customers) {
      if (count.windowEndsAt <= now && count.sending === 0 && count.pending === 0) this.customers.delete(userId);
    }
  }
}

/**
 * Several keys' hits counted in one upsert (the money-call counter's flush; countHit's one key):
 * answers each key's hits so far in its window and its time left, in the order given. A prepared
 * statement: every request of a limited route runs it.
 */
async function countHits(db: DB, counts: Array<{ key: string; hits: number }>, windowMs: number): Promise<Array<{ hits: number; ttlMs: number }>> {
  const { rows } = await db.executeQuery(
    prepared(
      sql<Hit & { key: string }>`
      insert into rate_limits as stored (key, hits, window_ends_at)
      select counted.key, counted.hits, now() + make_interval(secs => ${windowMs / 1000})
      from jsonb_to_recordset(${JSON.stringify(counts)}::jsonb) as counted (key text, hits int)
      ${COUNT_HIT_ON_CONFLICT}`.compile(db),
    ),
  );
  const byKey = new Map(rows.map((row) => [row.key, { hits: row.hits, ttlMs: row.ttl_ms }]));
  return counts.map((count) => byKey.get(count.key) ?? { hits: count.hits, ttlMs: windowMs });
}

/**
 * The per-customer cap on money calls (ADR 016): every route declaring `config.moneyCall` counts one
 * hit for the signed-in customer (MoneyCallCounter: in the process, added to the shared count in
 * rate_limits off the request's path), and past MONEY_CALLS_PER_MINUTE answers 429 with
 * Retry-After until the customer's minute ends. Off with RATE_LIMITS=false. Runs after the sign-in
 * hook: only a customer who passed the route's access check is counted.
 */
export function registerMoneyCallLimit(api: FastifyInstance, context: Pick<AppContext, 'db' | 'config' | 'log' | 'clock'>): void {
  if (!context.config.rateLimits) return;
  const cap = context.config.limits.moneyCallsPerMinute;
  const counter = new MoneyCallCounter(context.db, context.log, () => context.clock.now().getTime());
  api.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.moneyCall || !request.user) return;
    const { hits, ttlMs } = await counter.hit(request.user.id);
    if (hits > cap) throw rateLimited(MONEY_CALLS_MESSAGE, Math.max(1, Math.ceil(ttlMs / 1000)));
  });
  api.addHook('onClose', () => counter.close());
}
