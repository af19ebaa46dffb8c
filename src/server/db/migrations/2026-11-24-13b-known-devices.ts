import { type Kysely, sql } from 'kysely';

// The devices a customer has signed in from, so a sign-in from one not seen before can be told to
// them by email. A device is a random token in a long-lived HttpOnly cookie (ll_device); only its
// SHA-256 is stored, per user, so the same browser shared by two customers is two rows and the
// cookie reveals nothing about who used it. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table known_devices (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null check (length(token_hash) = 64),
      first_seen_at timestamptz not null default now(),
      unique (user_id, token_hash)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
