import { type Kysely, sql } from 'kysely';

// Notifications (issue 14, docs/decisions/013-notifications.md) and the indexes of the searchable
// history. Frozen once landed.
//
// - notifications: one row per event and customer, written by notify() in the transaction of its
//   cause. `dedupe_key` is unique per customer and kind, so an event notified twice (a job run
//   again) is one row and one mail. `in_app` says whether the customer's list shows it (a row whose
//   only channel was email stays, hidden, so a retry is still recognised). No CHECK on `kind`: the
//   kinds live in the shared contract, and a new kind must not need a migration on every branch.
// - notification_preferences: a row only where the customer chose; no row means the defaults of
//   the contract (NOTIFICATION_DEFAULTS).
// - notification_cursors: how far the ledger notifier has read the hash chain (ledger_chain
//   position, gapless and in commit order); it starts at the chain's head, so a bank upgraded with
//   a long history does not notify its past.
// - pg_trgm (shipped with PostgreSQL's contrib, the embedded server included; trusted since
//   PostgreSQL 13, so the database owner may create it) and trigram indexes for the history's
//   text search, and an index for its amount range. On a large existing ledger build them first
//   with CREATE INDEX CONCURRENTLY under the same names (ADR 013): this migration then skips them
//   instead of blocking postings while it builds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      kind text not null check (kind ~ '^[a-z][a-z_]{1,49}$'),
      dedupe_key text not null check (length(dedupe_key) between 1 and 200),
      title text not null check (length(title) <= 200),
      body text not null check (length(body) <= 1000),
      link text check (length(link) <= 300),
      in_app boolean not null,
      emailed boolean not null,
      created_at timestamptz not null,
      read_at timestamptz,
      unique (user_id, kind, dedupe_key)
    )`.execute(db);
  // The customer's list, newest first, and the bell's unread count.
  await sql`create index notifications_user_list_idx on notifications (user_id, created_at desc, id desc) where in_app`.execute(db);
  await sql`create index notifications_user_unread_idx on notifications (user_id) where in_app and read_at is null`.execute(db);

  await sql`
    create table notification_preferences (
      user_id uuid not null references users(id) on delete cascade,
      kind text not null check (kind ~ '^[a-z][a-z_]{1,49}$'),
      in_app boolean not null,
      email boolean not null,
      threshold_cents bigint check (threshold_cents > 0),
      updated_at timestamptz not null default now(),
      primary key (user_id, kind)
    )`.execute(db);

  await sql`
    create table notification_cursors (
      name text primary key,
      position bigint not null check (position >= 0),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`insert into notification_cursors (name, position) select 'ledger', coalesce(max(position), 0) from ledger_chain`.execute(db);

  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index if not exists postings_memo_trgm_idx on postings using gin (memo gin_trgm_ops)`.execute(db);
  await sql`create index if not exists postings_counterparty_trgm_idx on postings using gin (counterparty gin_trgm_ops)`.execute(db);
  await sql`create index if not exists journal_entries_description_trgm_idx on journal_entries using gin (description gin_trgm_ops)`.execute(db);
  await sql`create index if not exists entry_notes_description_trgm_idx on entry_notes using gin (description gin_trgm_ops)`.execute(db);
  await sql`create index if not exists postings_account_abs_amount_idx on postings (account_id, abs(amount))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
