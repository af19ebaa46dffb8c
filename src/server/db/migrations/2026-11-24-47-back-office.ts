import { type Kysely, sql } from 'kysely';

// The back office's books (issue 15, docs/decisions/017-back-office-books.md): the whole journal
// paged by key, the end-of-day trial balance, and the customer page's staff notes and timeline.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // ---------------------------------------------------------------- the whole journal
  // The journal is paged by entry seq (the order entries were applied, unique). With no filter the
  // seq key itself serves; a kind filter walks (kind, seq); an account or customer filter walks
  // postings_account_seq_idx (account_id, entry_seq desc); a booking-time range uses
  // journal_entries_booked_at_idx and a value-date range the index below. An amount range alone is
  // a filter on the seq walk (no index: every journal index slows every posting).
  await sql`create index journal_entries_kind_seq_idx on journal_entries (kind, seq desc)`.execute(db);
  await sql`create index journal_entries_value_date_idx on journal_entries (value_date, seq desc)`.execute(db);
  // An entry page lists the audit records about it (target_type 'journal_entry', target_id its id);
  // audit_log is a view over audit_records since the audit chain (ADR 014), so the index is on the table.
  await sql`create index audit_records_entry_target_idx on audit_records (target_id, at) where target_type = 'journal_entry'`.execute(db);

  // ---------------------------------------------------------------- end of day
  // One row per closed bank day (BANK_TIMEZONE): the day's range of booking times and the totals.
  // Only accounts that moved get a line; every other account is summed in unchanged_*, so the
  // opening and closing columns each total zero. Closed days never change: append-only.
  await sql`
    create table trial_balances (
      day date primary key,
      starts_at timestamptz not null,
      ends_at timestamptz not null check (ends_at > starts_at),
      time_zone text not null,
      accounts_moved integer not null check (accounts_moved >= 0),
      opening_total bigint not null,
      debits_total bigint not null check (debits_total >= 0),
      credits_total bigint not null check (credits_total >= 0),
      closing_total bigint not null,
      unchanged_accounts integer not null check (unchanged_accounts >= 0),
      unchanged_balance bigint not null,
      entries integer not null check (entries >= 0),
      created_at timestamptz not null default now(),
      constraint trial_balances_debits_equal_credits check (debits_total = credits_total),
      constraint trial_balances_opening_zero check (opening_total + unchanged_balance = 0),
      constraint trial_balances_closing_zero check (closing_total + unchanged_balance = 0)
    )`.execute(db);
  await sql`
    create table trial_balance_lines (
      day date not null references trial_balances(day),
      account_id uuid not null references ledger_accounts(id),
      opening bigint not null,
      debits bigint not null check (debits >= 0),
      credits bigint not null check (credits >= 0),
      closing bigint not null,
      primary key (day, account_id),
      constraint trial_balance_lines_moved check (debits > 0 or credits > 0),
      constraint trial_balance_lines_add_up check (opening - debits + credits = closing)
    )`.execute(db);
  // An account's newest closing balance on or before a day: the balance at a past date, and the next day's opening.
  await sql`create index trial_balance_lines_account_day_idx on trial_balance_lines (account_id, day desc)`.execute(db);
  for (const table of ['trial_balances', 'trial_balance_lines']) {
    await sql.raw(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function refuse_change()`).execute(db);
    await sql.raw(`create trigger ${table}_no_truncate before truncate on ${table} for each statement execute function refuse_change()`).execute(db);
  }

  // ---------------------------------------------------------------- the customer page
  // Staff notes about a customer: append-only. The one change allowed is erasing a note's text
  // when the customer is closed and anonymized (DESIGN.md rule 6): the row stays, marked erased.
  await sql`
    create table customer_notes (
      id bigint generated always as identity primary key,
      user_id uuid not null references users(id) on delete restrict,
      author_id uuid,
      author_email text,
      body text not null,
      created_at timestamptz not null default now(),
      erased_at timestamptz,
      constraint customer_notes_body_length check (erased_at is not null or char_length(body) between 1 and 2000)
    )`.execute(db);
  await sql`create index customer_notes_user_idx on customer_notes (user_id, created_at desc, id desc)`.execute(db);
  await sql`
    create function customer_notes_erase_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.erased_at is null and new.erased_at is not null and new.body = ''
         and new.id = old.id and new.user_id = old.user_id and new.author_id is not distinct from old.author_id
         and new.author_email is not distinct from old.author_email and new.created_at = old.created_at then
        return new;
      end if;
      raise exception 'customer_notes is append-only: % refused', tg_op using errcode = 'P0001';
    end $$`.execute(db);
  await sql`create trigger customer_notes_append_only before update or delete on customer_notes for each row execute function customer_notes_erase_only()`.execute(
    db,
  );
  await sql`create trigger customer_notes_no_truncate before truncate on customer_notes for each statement execute function refuse_change()`.execute(db);

  // The timeline's sign-ins: every session of a user, newest first (the existing index holds live ones only).
  await sql`create index sessions_user_created_idx on sessions (user_id, created_at desc)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
