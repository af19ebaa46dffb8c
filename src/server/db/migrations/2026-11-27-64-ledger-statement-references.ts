import { type Kysely, sql } from 'kysely';

// The ledger's references checked once per statement instead of once per row (issue 14's bulk
// target, ADR 021 and ADR 003), as migration 57 did for double entry. A foreign key checks each
// inserted row with its own query and row lock: a 1,000-payment batch ran 2,000 checks for the
// postings' entries, 2,000 for their accounts (32 distinct rows, already locked by the writer) and
// 1,000 for the sealer's queue, about a third of the write statement's time, all of it while
// the batch holds its payees' locks; and the sealer 1,000 more for the chain. The guarantees stay, checked at the end of the inserting
// statement over its new rows (transition tables):
// - every new posting's account exists, and is locked FOR KEY SHARE as a foreign key locks it, so
//   a concurrent delete waits for the posting's transaction and then finds the posting;
// - every new posting's entry exists (and entries are never deleted: journal_entries is append
//   only), checked by the double-entry check that already reads each of those entries' postings;
// - every row queued for the sealer, and every link of the chain, names an existing entry;
// - an account that a posting refers to cannot be deleted (23503, as the foreign key answered:
//   deleting a customer without ledger history still works, and one with history is refused).
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table postings drop constraint postings_entry_id_fkey`.execute(db);
  await sql`alter table postings drop constraint postings_account_id_fkey`.execute(db);
  await sql`alter table ledger_unsealed drop constraint ledger_unsealed_entry_id_fkey`.execute(db);
  await sql`alter table ledger_chain drop constraint ledger_chain_entry_id_fkey`.execute(db);

  await sql`drop trigger postings_balanced on postings`.execute(db);
  await sql`drop function check_postings_balanced()`.execute(db);
  await sql
    .raw(
      `
    create function check_postings_written() returns trigger language plpgsql as $$
    declare
      bad record;
      missing uuid;
    begin
      -- Every account named exists and is key-share locked until commit, as a foreign key does.
      -- Lateral lookups by primary key: a join planned over a transition table of unknown size
      -- could scan every account.
      select named.account_id into missing
      from (select distinct account_id from new_postings) as named
      left join lateral (
        select account.id from ledger_accounts as account where account.id = named.account_id for key share of account
      ) as found on true
      where found.id is null
      limit 1;
      if found then
        raise exception 'a posting refers to account % that does not exist', missing using errcode = '23503';
      end if;
      -- Every entry named exists, has at least two postings, and they sum to zero.
      select touched.id, lines.total, lines.count, not lines.present as missing into bad
      from (select distinct entry_id as id from new_postings) as touched
      cross join lateral (
        select coalesce(sum(line.amount), 0) as total, count(*) as count,
          (select exists (select 1 from journal_entries as entry where entry.id = touched.id)) as present
        from postings as line where line.entry_id = touched.id
      ) as lines
      where not lines.present or lines.total <> 0 or lines.count < 2
      limit 1;
      if found and bad.missing then
        raise exception 'a posting refers to journal entry % that does not exist', bad.id using errcode = '23503';
      end if;
      if found then
        raise exception 'journal entry % is not balanced (sum %, % postings)', bad.id, bad.total, bad.count using errcode = '23514';
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger postings_written after insert on postings
    referencing new table as new_postings for each statement execute function check_postings_written()`.execute(db);

  // The sealer's queue and the chain: each new row's entry exists, by primary key (a scalar
  // subquery: never planned as a scan). Both tables' transition tables are named new_rows.
  await sql
    .raw(
      `
    create function check_entries_exist() returns trigger language plpgsql as $$
    begin
      if exists (
        select 1 from new_rows as queued
        where not (select exists (select 1 from journal_entries as entry where entry.id = queued.entry_id))
      ) then
        raise exception '% refers to a journal entry that does not exist', tg_table_name using errcode = '23503';
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  for (const table of ['ledger_unsealed', 'ledger_chain']) {
    await sql
      .raw(
        `create trigger ${table}_entries after insert on ${table}
        referencing new table as new_rows for each statement execute function check_entries_exist()`,
      )
      .execute(db);
  }

  // The delete side of the dropped foreign key: an account with postings stays.
  await sql
    .raw(
      `
    create function refuse_account_with_postings() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from postings where account_id = old.id) then
        raise exception 'account % has postings and cannot be deleted', old.id using errcode = '23503';
      end if;
      return old;
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger ledger_accounts_keep_posted before delete on ledger_accounts
    for each row execute function refuse_account_with_postings()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
