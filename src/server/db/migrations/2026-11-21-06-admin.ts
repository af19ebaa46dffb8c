import { type Kysely, sql } from 'kysely';

// The admin back office: indexes that keep the users list, its search and the dashboard fast
// with 100,000 customers (bench/admin.ts measures them). Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
  await sql`create extension if not exists pg_trgm`.execute(db);

  // Search by any part of the name or email: one trigram index over the text an admin types.
  await sql`create index users_search_trgm_idx on users
    using gin ((lower(first_name || ' ' || last_name || ' ' || email)) gin_trgm_ops)`.execute(db);
  // Searches shorter than a trigram (1-2 characters) match name and email prefixes instead.
  await sql`create index users_first_name_prefix_idx on users (lower(first_name) text_pattern_ops)`.execute(db);
  await sql`create index users_last_name_prefix_idx on users (lower(last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_email_prefix_idx on users (email text_pattern_ops)`.execute(db);

  // Sorting the table by a column, with the id as the tie-breaker for a stable page order.
  await sql`create index users_first_name_sort_idx on users (lower(first_name), id)`.execute(db);
  await sql`create index users_last_name_sort_idx on users (lower(last_name), id)`.execute(db);

  // Dashboard counts read small partial indexes instead of the whole table.
  await sql`create index users_open_customers_idx on users (created_at) where not is_admin and closed_at is null`.execute(db);
  await sql`create index users_pending_kyc_idx on users (created_at) where verification_status = 'pending'`.execute(db);

  // Search by account number: prefix match on the customer's 10 digits.
  await sql`create index ledger_accounts_number_prefix_idx on ledger_accounts (number text_pattern_ops) where owner_id is not null`.execute(db);

  // Today's transfers and the 30-day series read only this index (the journal is the ledger
  // engineer's table; when it is not there yet this index comes with a later migration).
  await sql`
    do $$
    begin
      if to_regclass('journal_entries') is not null then
        execute 'create index journal_entries_transfer_booked_idx on journal_entries (booked_at) include (amount)
                 where kind in (''transfer'', ''wire'', ''internal'')';
      end if;
    end $$`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
