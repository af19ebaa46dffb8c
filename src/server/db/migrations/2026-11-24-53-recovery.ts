import { type Kysely, sql } from 'kysely';

// Issue 13's remaining pieces and issue 14's request lifecycle (ADR 025, ADR 020). Frozen once landed.
//
// - `account_recoveries`: support's recovery of a customer who lost every factor. Staff start one
//   after an identity check (`identity_check`, required); it takes effect at `effective_at` (24 hours
//   later) unless the customer cancels it from the mailed link (only its hash is kept) or a
//   signed-in session. At most one is pending per customer.
// - `sign_in_email_codes`: every emailed sign-in code, first or resent, so the hourly cap of ADR 016
//   counts codes, not tickets; `sign_in_tickets.owners_device` remembers whether the ticket came
//   from a browser the owner used (its resends are not capped, as its first code was not).
// - `payment_requests`: a requester may cancel a pending request; a request expires at `expires_at`
//   (30 days after it was made, PAYMENT_REQUEST_EXPIRY_DAYS) and can then no longer be paid.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_recoveries (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      started_by uuid references users(id) on delete set null,
      identity_check text not null check (length(identity_check) between 1 and 1000),
      status text not null default 'pending' check (status in ('pending', 'cancelled', 'completed')),
      cancel_token_hash text not null unique,
      created_at timestamptz not null,
      effective_at timestamptz not null,
      cancelled_at timestamptz,
      cancelled_via text check (cancelled_via in ('link', 'session', 'staff')),
      completed_at timestamptz,
      check (effective_at > created_at),
      check ((status = 'cancelled') = (cancelled_at is not null and cancelled_via is not null)),
      check ((status = 'completed') = (completed_at is not null))
    )`.execute(db);
  await sql`create unique index account_recoveries_one_pending on account_recoveries (user_id) where status = 'pending'`.execute(db);
  await sql`create index account_recoveries_due_idx on account_recoveries (effective_at) where status = 'pending'`.execute(db);

  await sql`alter table sign_in_tickets add column owners_device boolean not null default false`.execute(db);
  await sql`
    create table sign_in_email_codes (
      id bigint generated always as identity primary key,
      user_id uuid not null references users(id) on delete cascade,
      audience text not null,
      sent_at timestamptz not null
    )`.execute(db);
  await sql`create index sign_in_email_codes_user_idx on sign_in_email_codes (user_id, audience, sent_at)`.execute(db);
  // Codes already mailed this hour keep counting.
  await sql`
    insert into sign_in_email_codes (user_id, audience, sent_at)
    select user_id, audience, coalesce(email_code_sent_at, created_at) from sign_in_tickets
    where 'email' = any(methods) and created_at > now() - interval '1 hour'`.execute(db);

  await sql`alter table payment_requests drop constraint payment_requests_status_check`.execute(db);
  await sql`alter table payment_requests add constraint payment_requests_status_check check (status in ('pending', 'paid', 'declined', 'cancelled'))`.execute(
    db,
  );
  await sql`alter table payment_requests add column expires_at timestamptz`.execute(db);
  await sql`update payment_requests set expires_at = created_at + interval '30 days'`.execute(db);
  await sql`alter table payment_requests alter column expires_at set not null`.execute(db);
  await sql`alter table payment_requests add check (expires_at > created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
