import { sql } from 'kysely';

/**
 * How a hit is counted in `rate_limits` (ADR 016), after `insert into rate_limits as stored (key,
 * hits, window_ends_at) values (key, 1, <end of a new window>)`: a window that has ended starts
 * again at 1, else the hit is added; answers the hits and the milliseconds left in the window.
 * The one text of it for every counter (the limits' store and the money call counted with the
 * session lookup).
 */
export const COUNT_HIT_ON_CONFLICT = sql`on conflict (key) do update set
        hits = case when stored.window_ends_at <= now() then 1 else stored.hits + 1 end,
        window_ends_at = case when stored.window_ends_at <= now() then excluded.window_ends_at else stored.window_ends_at end
      returning hits, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl_ms`;
