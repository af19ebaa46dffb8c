import { sql } from 'kysely';

/**
 * How hits are counted in `rate_limits` (ADR 016), after `insert into rate_limits as stored (key,
 * hits, window_ends_at) values (key, <hits>, <end of a new window>)` (one hit, or the several of one
 * statement): a window that has ended starts again with them, else they are added; answers the key,
 * its hits and the milliseconds left in the window.
 * The one text of it for every counter (plugins/rate-limit.ts: the limits' store and the money-call
 * counter share one statement).
 */
export const COUNT_HIT_ON_CONFLICT = sql`on conflict (key) do update set
        hits = case when stored.window_ends_at <= now() then excluded.hits else stored.hits + excluded.hits end,
        window_ends_at = case when stored.window_ends_at <= now() then excluded.window_ends_at else stored.window_ends_at end
      returning key, hits, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms`;
