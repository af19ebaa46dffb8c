import { type Kysely, sql } from 'kysely';

// The double-entry ledger (DESIGN.md sections 1 and 4). Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_accounts (
      id uuid primary key default gen_random_uuid(),
      number text,
      owner_id uuid references users(id) on delete restrict,
      kind text not null check (kind in ('savings', 'checking', 'bank_cash', 'bank_operations', 'external_clearing', 'loans_receivable')),
      name text not null,
      currency text not null default 'USD' check (currency = 'USD'),
      balance bigint not null default 0,
      allow_negative boolean not null default false,
      created_at timestamptz not null default now(),
      constraint ledger_accounts_no_overdraft check (allow_negative or balance >= 0),
      constraint ledger_accounts_customer_never_negative check (owner_id is null or (not allow_negative)),
      constraint ledger_accounts_customer_has_number check (owner_id is null or number ~ '^[0-9]{10}$')
    )`.execute(db);
  await sql`create unique index ledger_accounts_owner_kind_key on ledger_accounts (owner_id, kind) where owner_id is not null`.execute(db);
  await sql`create unique index ledger_accounts_bank_kind_key on ledger_accounts (kind) where owner_id is null`.execute(db);
  await sql`create unique index ledger_accounts_number_kind_key on ledger_accounts (number, kind) where number is not null`.execute(db);

  // One row: the newest entry's sequence number and hash. Every posting transaction locks it, so
  // entries form one gapless chain in commit order (prev_hash of seq n = hash of seq n-1).
  await sql`
    create table ledger_chain_head (
      id integer primary key check (id = 1),
      seq bigint not null,
      hash text not null
    )`.execute(db);
  await sql`insert into ledger_chain_head (id, seq, hash) values (1, 0, repeat('0', 64))`.execute(db);

  await sql`
    create table journal_entries (
      id uuid primary key,
      seq bigint not null unique check (seq > 0),
      kind text not null check (kind in ('opening', 'transfer', 'wire', 'internal', 'adjustment', 'reversal', 'loan')),
      description text not null,
      value_date date not null,
      booked_at timestamptz not null,
      author_id uuid,
      amount bigint not null check (amount > 0),
      reversal_of uuid unique references journal_entries(id),
      details jsonb,
      prev_hash text not null,
      hash text not null,
      constraint journal_entries_reversal_kind check ((kind = 'reversal') = (reversal_of is not null))
    )`.execute(db);
  await sql`create index journal_entries_booked_at_idx on journal_entries (booked_at desc)`.execute(db);
  await sql`create index journal_entries_kind_booked_idx on journal_entries (kind, booked_at desc)`.execute(db);

  await sql`
    create table postings (
      id uuid primary key default gen_random_uuid(),
      entry_id uuid not null references journal_entries(id),
      entry_seq bigint not null,
      account_id uuid not null references ledger_accounts(id),
      amount bigint not null check (amount <> 0),
      balance_after bigint not null,
      memo text,
      counterparty text,
      constraint postings_one_per_account unique (entry_id, account_id)
    )`.execute(db);
  await sql`create index postings_account_seq_idx on postings (account_id, entry_seq desc)`.execute(db);

  // Description corrections by staff: the posted entry stays as it was hashed; the newest note wins on display.
  await sql`
    create table entry_notes (
      id bigint generated always as identity primary key,
      entry_id uuid not null references journal_entries(id),
      description text not null,
      author_id uuid,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index entry_notes_entry_idx on entry_notes (entry_id, id desc)`.execute(db);

  await sql`
    create table idempotency_keys (
      user_id uuid not null,
      key text not null,
      request_hash text not null,
      status_code integer not null,
      response jsonb not null,
      entry_id uuid references journal_entries(id),
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    )`.execute(db);

  // History is append-only: the database refuses to change or remove an entry, a posting or a note.
  for (const table of ['journal_entries', 'postings', 'entry_notes']) {
    await sql.raw(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function refuse_change()`).execute(db);
    await sql.raw(`create trigger ${table}_no_truncate before truncate on ${table} for each statement execute function refuse_change()`).execute(db);
  }

  // Double entry, checked at commit: every entry has at least two postings and they sum to zero,
  // including postings someone adds to an existing entry later.
  await sql`
    create function check_entry_balanced() returns trigger language plpgsql as $$
    declare
      target uuid;
      total numeric;
      lines integer;
    begin
      if tg_table_name = 'journal_entries' then target := new.id; else target := new.entry_id; end if;
      select coalesce(sum(amount), 0), count(*) into total, lines from postings where entry_id = target;
      if total <> 0 or lines < 2 then
        raise exception 'journal entry % is not balanced (sum %, % postings)', target, total, lines using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger journal_entries_balanced after insert on journal_entries
    deferrable initially deferred for each row execute function check_entry_balanced()`.execute(db);
  await sql`create constraint trigger postings_balanced after insert on postings
    deferrable initially deferred for each row execute function check_entry_balanced()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
