import { type Kysely, sql } from 'kysely';

// Second factors (issue 13, ADR 011): passkeys, an authenticator app (TOTP) with its recovery
// codes, the tickets of a sign-in waiting for its second step, and the WebAuthn challenges the
// server has handed out. Only hashes of what works as a password are stored (ticket tokens,
// recovery codes, emailed codes); a TOTP secret must be readable to check a code, and no call
// returns it after enrolment. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table passkeys (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      credential_id text not null unique check (length(credential_id) between 1 and 1400),
      public_key bytea not null check (length(public_key) between 1 and 4096),
      counter bigint not null default 0 check (counter >= 0),
      transports text[] not null default '{}' check (cardinality(transports) <= 8),
      name text not null check (length(name) between 1 and 60),
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index passkeys_user_id on passkeys (user_id)`.execute(db);

  // One authenticator app per user: pending (confirmed_at null) until a first code confirms it.
  // last_used_step is the newest 30-second step whose code was accepted: a code is accepted once.
  await sql`
    create table totp_factors (
      user_id uuid primary key references users(id) on delete cascade,
      secret text not null check (secret ~ '^[A-Z2-7]{16,128}$'),
      confirmed_at timestamptz,
      last_used_step bigint,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      code_hash text not null check (length(code_hash) = 64),
      used_at timestamptz,
      created_at timestamptz not null default now(),
      unique (user_id, code_hash)
    )`.execute(db);

  // The second step of a sign-in: bound to its user and to the sign-in it came from (customer or
  // staff), with the methods it accepts; 5 minutes, 5 attempts, used once.
  await sql`
    create table sign_in_tickets (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null unique check (length(token_hash) = 64),
      audience text not null check (audience in ('customer', 'staff')),
      methods text[] not null check (cardinality(methods) between 1 and 4 and methods <@ array['passkey', 'totp', 'recovery', 'email']),
      attempts integer not null default 0 check (attempts >= 0),
      email_code_hash text check (email_code_hash is null or length(email_code_hash) = 64),
      email_code_sent_at timestamptz,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sign_in_tickets_expires_at on sign_in_tickets (expires_at)`.execute(db);

  // A challenge is used once: registering a passkey (user_id), signing in with one alone
  // (audience, no user yet), as a ticket's second step (ticket_id), or proving a fresh factor
  // before a sensitive change (step_up, user_id).
  await sql`
    create table webauthn_challenges (
      id uuid primary key default gen_random_uuid(),
      challenge text not null unique check (length(challenge) between 16 and 128),
      purpose text not null check (purpose in ('registration', 'sign_in', 'step_up')),
      user_id uuid references users(id) on delete cascade,
      ticket_id uuid references sign_in_tickets(id) on delete cascade,
      audience text check (audience in ('customer', 'staff')),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webauthn_challenges_expires_at on webauthn_challenges (expires_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
