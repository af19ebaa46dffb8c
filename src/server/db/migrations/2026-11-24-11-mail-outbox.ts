import { type Kysely, sql } from 'kysely';

// Every email goes through this outbox: the row is written in the transaction of the change that
// causes the mail, and a background job delivers it (docs/decisions/010-background-jobs.md).
// `message_id` is the Message-ID the mail is sent with, on every attempt, so a mail sent twice
// (a crash between SMTP's answer and the row's update) is recognised as one by the receiver.
// `expires_at`: a mail that carries a code or a link is dropped (status 'expired') instead of
// sent once the code or link no longer works. The indexes serve the purge jobs, which delete
// what is past its retention from this table and from the credentials tables.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_outbox (
      id bigint generated always as identity primary key,
      message_id text not null unique check (length(message_id) <= 200),
      to_address text not null check (length(to_address) <= 320),
      subject text not null check (length(subject) <= 500),
      body text not null check (length(body) <= 20000),
      status text not null default 'pending' check (status in ('pending', 'sent', 'expired')),
      attempts integer not null default 0 check (attempts >= 0),
      last_error text check (length(last_error) <= 1000),
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      check ((status = 'sent') = (sent_at is not null))
    )`.execute(db);
  await sql`create index mail_outbox_settled_idx on mail_outbox (created_at) where status <> 'pending'`.execute(db);

  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);
  await sql`create index sessions_last_seen_at_idx on sessions (last_seen_at)`.execute(db);
  await sql`create index one_time_codes_expires_at_idx on one_time_codes (expires_at)`.execute(db);
  await sql`create index password_resets_expires_at_idx on password_resets (expires_at)`.execute(db);
  await sql`create index idempotency_keys_created_at_idx on idempotency_keys (created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
