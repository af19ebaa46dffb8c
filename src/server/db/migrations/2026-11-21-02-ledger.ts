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
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
