import { type Kysely, sql } from 'kysely';

// Frozen once landed: a later change is a new migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null,
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      phone text not null default '',
      address text not null default '',
      state text not null default '',
      date_of_birth date,
      sex text,
      country_code text,
      occupation text,
      annual_income_range text,
      account_type text,
      ssn_tin text,
      is_admin boolean not null default false,
      is_blocked boolean not null default false,
      is_account_disabled boolean not null default false,
      is_email_confirmed boolean not null default false,
      verification_status text not null default 'awaiting'
        check (verification_status in ('awaiting', 'pending', 'verified', 'failed')),
      profile_picture text,
      closed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint users_email_lowercase check (email = lower(email)),
      constraint users_admin_never_disabled check (not (is_admin and is_account_disabled))
    )`.execute(db);
  await sql`create unique index users_email_key on users (email)`.execute(db);
  await sql`create index users_created_at_idx on users (created_at desc, id)`.execute(db);

  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ended_at timestamptz,
      user_agent text,
      ip text
    )`.execute(db);
  await sql`create index sessions_user_idx on sessions (user_id) where ended_at is null`.execute(db);

  await sql`
    create table one_time_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('email_verification', 'email_change', 'transfer')),
      code_hash text not null,
      binding text not null,
      payload jsonb,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index one_time_codes_lookup_idx on one_time_codes (user_id, purpose, created_at desc)`.execute(db);

  // Failed sign-ins are counted per email, registered or not, so a lock never reveals whether
  // an address has an account.
  await sql`
    create table login_throttle (
      email text primary key,
      failures integer not null default 0,
      locked_until timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table password_resets (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);

  // The audit log is append-only: the database refuses to change or remove a row.
  await sql`
    create table audit_log (
      id bigint generated always as identity primary key,
      at timestamptz not null default now(),
      actor_id uuid,
      actor_email text,
      action text not null,
      target_user_id uuid,
      target_type text,
      target_id text,
      before jsonb,
      after jsonb,
      reason text,
      ip text
    )`.execute(db);
  await sql`create index audit_log_at_idx on audit_log (at desc, id desc)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (actor_id, at desc)`.execute(db);
  await sql`create index audit_log_target_idx on audit_log (target_user_id, at desc)`.execute(db);
  await sql`create index audit_log_action_idx on audit_log (action, at desc)`.execute(db);
  await sql`
    create function refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = 'P0001';
    end $$`.execute(db);
  await sql`create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function refuse_change()`.execute(db);
  await sql`create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function refuse_change()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
