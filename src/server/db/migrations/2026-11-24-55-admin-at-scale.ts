import { type Kysely, sql } from 'kysely';

// The back office at a million customers (issue 15, docs/decisions/027-admin-at-a-million.md):
// the journal's date filters and the trial balance's pages read an index in the order they show,
// instead of sorting or walking the whole journal. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Building these over millions of entries and lines takes longer than the app's statement
  // limit: lifted for the migration's own transaction only.
  await sql`set local statement_timeout = 0`.execute(db);
  // A booking-time filter walks each UTC day it covers in seq order (the page's order), one day
  // at a time, instead of walking every newer entry back to the range.
  await sql`create index journal_entries_booked_day_seq_idx on journal_entries (((booked_at at time zone 'UTC')::date), seq desc)`.execute(db);
  // Statistics on the indexed expression now, not at the next autovacuum: without them the planner
  // guesses a day holds a few hundred entries and combines bitmaps over tens of thousands instead.
  // Only for a journal that has entries: statistics of an EMPTY journal (a new bank) tell the
  // planner it stays empty, so every foreign-key check of a posting walked the whole table until
  // autovacuum analyzed it again (PostgreSQL's CPU per transfer x3 in bench:transfers).
  await sql`do $$ begin if exists (select 1 from journal_entries) then analyze journal_entries; end if; end $$`.execute(db);

  // A trial balance's lines in the report's order (the bank's accounts, then customers' by
  // number): the order key is stored with each line when the day is closed, so a page is a walk
  // of this index (it covers the figures too) rather than a sort of every line of the day joined
  // to its account. The key is derived from the account's number, kind and id, which never change.
  await sql`alter table trial_balance_lines add column sort_key text`.execute(db);
  // Lines already stored get their key once, here: the append-only trigger is set aside for this
  // statement only, inside the migration's transaction (nothing else can write meanwhile).
  await sql`alter table trial_balance_lines disable trigger trial_balance_lines_append_only`.execute(db);
  await sql`
    update trial_balance_lines l
    set sort_key = (case when a.owner_id is null then '0' else '1' end) || coalesce(a.number, '') || ' ' || a.kind || ' ' || a.id::text
    from ledger_accounts a where a.id = l.account_id`.execute(db);
  await sql`alter table trial_balance_lines enable trigger trial_balance_lines_append_only`.execute(db);
  await sql`alter table trial_balance_lines alter column sort_key set not null`.execute(db);
  await sql`create index trial_balance_lines_day_sort_idx on trial_balance_lines (day, sort_key) include (account_id, opening, debits, credits, closing)`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
