import { type Kysely, sql } from 'kysely';

// Issue 13's abuse limits (ADR 016). Frozen once landed.
// - sign_in_throttle replaces login_throttle: failed sign-ins make the next attempts wait (never a
//   lock), counted per account (the email, registered or not) and per address, customer and staff
//   sign-ins apart.
// - sign_in_email_tickets: the emailed-code step a sign-in needs once an account has had many
//   failures (only hashes of the ticket and the code are stored).
// - users.payments_held_until / code_failures_since: outgoing payments held after too many wrong
//   transfer codes in a day, until staff release them or the hold runs out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_throttle`.execute(db);
  await sql`
    create table sign_in_throttle (
      scope text not null check (scope in ('customer', 'staff')),
      subject text not null check (length(subject) between 1 and 320),
      failures integer not null default 0 check (failures >= 0),
      last_failure_at timestamptz,
      blocked_until timestamptz,
      primary key (scope, subject)
    )`.execute(db);
  await sql`create index sign_in_throttle_last_failure_idx on sign_in_throttle (last_failure_at)`.execute(db);

  await sql`
    create table sign_in_email_tickets (
      id uuid primary key default gen_random_uuid(),
      token_hash text not null unique check (length(token_hash) = 64),
      user_id uuid not null references users(id) on delete cascade,
      scope text not null check (scope in ('customer', 'staff')),
      code_hash text not null check (length(code_hash) = 64),
      attempts integer not null default 0 check (attempts >= 0),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sign_in_email_tickets_user_idx on sign_in_email_tickets (user_id)`.execute(db);
  await sql`create index sign_in_email_tickets_expires_at_idx on sign_in_email_tickets (expires_at)`.execute(db);

  await sql`alter table users add column payments_held_until timestamptz, add column code_failures_since timestamptz`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
