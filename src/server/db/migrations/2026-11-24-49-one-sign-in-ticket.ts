import { type Kysely, sql } from 'kysely';

// One sign-in ticket (ADR 011, ADR 016). The emailed code a sign-in needs after many failures is
// now a sign-in ticket offering "email" (sign_in_tickets, 2026-11-24-48-second-factors), so the
// separate table of 2026-11-24-42-abuse-limits goes. Its rows were tickets of at most 5 minutes:
// a sign-in caught mid-step starts again. The hourly cap on emailed codes counts the user's
// tickets by time, hence the index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sign_in_email_tickets`.execute(db);
  await sql`create index sign_in_tickets_user_created_idx on sign_in_tickets (user_id, created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
