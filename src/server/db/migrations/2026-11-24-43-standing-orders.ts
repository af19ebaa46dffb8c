import { type Kysely, sql } from 'kysely';

// Standing orders and scheduled payments (issue 14, docs/decisions/019-standing-orders.md).
// Frozen once landed.
//
// - standing_orders: the mandate the customer approved once (with the emailed code, bound to its
//   payee, amount, description and schedule). The payee is a snapshot taken at approval (a payee
//   deleted or renamed later does not change what was approved). `next_index`/`next_due_date` say
//   which occurrence is next (null: none left); `retry_at` holds an occurrence refused for
//   'Insufficient funds' until its one retry later that day; the `last_*` columns are the list's
//   "last result".
// - standing_order_payments: one row per occurrence settled (paid or skipped), written in the
//   transaction that posts it: the primary key is what makes each occurrence happen once.
// - journal_entries.kind gains 'standing_order', so the history labels each payment as one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table standing_orders (
      id uuid primary key,
      user_id uuid not null references users(id),
      from_kind text not null check (from_kind in ('savings', 'checking')),
      from_account_id uuid not null references ledger_accounts(id),
      to_kind text not null check (to_kind in ('own', 'payee', 'customer')),
      payee_id uuid,
      to_account_id uuid references ledger_accounts(id),
      to_account_number text check (length(to_account_number) <= 34),
      to_routing_number text check (length(to_routing_number) <= 9),
      to_bank_name text check (length(to_bank_name) <= 200),
      payee_name text not null check (length(payee_name) between 1 and 200),
      amount bigint not null check (amount > 0),
      description text not null check (length(description) between 1 and 200),
      frequency text not null check (frequency in ('once', 'weekly', 'monthly')),
      start_date date not null,
      end_date date check (end_date >= start_date),
      count integer check (count > 0),
      status text not null check (status in ('active', 'finished', 'cancelled')),
      next_index integer not null default 0 check (next_index >= 0),
      next_due_date date,
      retry_at timestamptz,
      attempts integer not null default 0 check (attempts >= 0),
      paid_count integer not null default 0 check (paid_count >= 0),
      last_outcome text check (last_outcome in ('paid', 'skipped', 'retrying')),
      last_reason text check (length(last_reason) <= 500),
      last_due_date date,
      last_at timestamptz,
      created_at timestamptz not null,
      cancelled_at timestamptz,
      check ((status = 'active') = (next_due_date is not null)),
      check (to_account_id is not null or to_kind = 'payee')
    )`.execute(db);
  await sql`create index standing_orders_user_idx on standing_orders (user_id, created_at desc)`.execute(db);
  // The job's question, every few minutes: which active orders are due (by date, then by retry time)?
  await sql`create index standing_orders_due_idx on standing_orders (next_due_date, retry_at) where status = 'active'`.execute(db);
  await sql`
    create table standing_order_payments (
      standing_order_id uuid not null references standing_orders(id),
      due_date date not null,
      outcome text not null check (outcome in ('paid', 'skipped')),
      reason text check (length(reason) <= 500),
      entry_id uuid references journal_entries(id),
      attempts integer not null check (attempts >= 0),
      settled_at timestamptz not null,
      primary key (standing_order_id, due_date),
      check ((outcome = 'paid') = (entry_id is not null))
    )`.execute(db);
  await sql`alter table journal_entries drop constraint journal_entries_kind_check`.execute(db);
  await sql`
    alter table journal_entries add constraint journal_entries_kind_check
      check (kind in ('opening', 'transfer', 'wire', 'internal', 'adjustment', 'reversal', 'loan', 'standing_order'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
