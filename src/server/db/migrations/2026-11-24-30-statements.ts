import { type Kysely, sql } from 'kysely';

// Statements (issue 14, docs/decisions/015-verifiable-statements.md): each is made once, from the
// ledger, and its exact PDF bytes are kept here (instances do not share DATA_DIR), with the SHA-256
// of those bytes, what it covers, the ledger chain link of its last entry, and the bank's Ed25519
// signature over all of that with the key id (a row of signing_keys). A statement is never changed
// or removed: a re-download answers these bytes whatever happens to the customer afterwards.
// statement_runs records each month the monthly job has finished queueing, so its hourly runs
// cost one lookup once a month is done and catch up on the months missed while nothing ran.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table statements (
      id uuid primary key,
      user_id uuid not null references users(id),
      account_id uuid not null references ledger_accounts(id),
      account_kind text not null check (account_kind in ('savings', 'checking')),
      period text not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      time_zone text not null check (length(time_zone) between 1 and 64),
      after_seq bigint not null check (after_seq >= 0),
      through_seq bigint not null check (through_seq > after_seq),
      line_count integer not null check (line_count > 0),
      opening_cents bigint not null,
      closing_cents bigint not null,
      total_in_cents bigint not null check (total_in_cents >= 0),
      total_out_cents bigint not null check (total_out_cents >= 0),
      last_entry_id uuid not null references journal_entries(id),
      ledger_chain_position bigint not null check (ledger_chain_position > 0),
      ledger_chain_hash text not null check (ledger_chain_hash ~ '^[0-9a-f]{64}$'),
      customer_name text not null check (length(customer_name) <= 200),
      account_number text not null check (length(account_number) <= 34),
      pdf bytea not null,
      sha256 text not null unique check (sha256 ~ '^[0-9a-f]{64}$'),
      key_id text not null references signing_keys(key_id),
      signature text not null check (length(signature) = 88),
      issued_at timestamptz not null,
      unique (account_id, period),
      check (opening_cents + total_in_cents - total_out_cents = closing_cents)
    )`.execute(db);
  await sql`create index statements_user_idx on statements (user_id, period desc)`.execute(db);
  await sql`create trigger statements_append_only before update or delete on statements for each row execute function refuse_change()`.execute(db);
  await sql`create trigger statements_no_truncate before truncate on statements for each statement execute function refuse_change()`.execute(db);

  await sql`
    create table statement_runs (
      period text primary key check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      accounts_queued integer not null check (accounts_queued >= 0),
      completed_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
