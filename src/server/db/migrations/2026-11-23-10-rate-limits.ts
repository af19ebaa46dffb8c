import { type Kysely, sql } from 'kysely';

// Rate limits counted in PostgreSQL, so every app process and instance shares one count per key
// (the route and the client's address): a limit that lived in each process's memory was N times
// looser with N processes. One row per key holds the current window; a hit past the window's
// end starts a new one in the same upsert, and rows left behind are purged now and then.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rate_limits (
      key text primary key check (length(key) <= 300),
      hits integer not null check (hits > 0),
      window_ends_at timestamptz not null
    )`.execute(db);
  await sql`create index rate_limits_window_ends_at_idx on rate_limits (window_ends_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
