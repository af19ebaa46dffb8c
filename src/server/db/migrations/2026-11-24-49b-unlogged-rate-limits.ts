import { type Kysely, sql } from 'kysely';

// Rate-limit windows are counters of the last minute, not records: an unlogged table writes no WAL,
// so counting a hit no longer waits for a WAL flush (it was a second durable commit on every
// transfer, beside the posting's own). The price (ADR 016): after a crash or a failover the
// windows start empty, so at most one window's counts are forgotten.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_limits set unlogged`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
