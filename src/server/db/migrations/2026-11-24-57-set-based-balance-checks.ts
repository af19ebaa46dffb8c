import { type Kysely, sql } from 'kysely';

// Double entry checked once per statement instead of once per row (issue 14's bulk target, ADR 021
// and ADR 003). The two deferred constraint triggers of migration 02 ran check_entry_balanced once
// for every inserted entry and every inserted posting: 3,000 queries on postings at the commit of a
// 1,000-payment batch. Constraint triggers can only be row-level, so they become statement-level
// AFTER INSERT triggers that see the statement's new rows (transition tables) and check every entry
// those rows belong to in one query. The guarantee stays: every entry has at least two postings
// and they sum to zero, including postings someone adds to an existing entry later. It is checked
// at the end of the inserting statement rather than at commit: the ledger writer inserts an entry
// and its postings in one statement (data-modifying CTEs, whose AFTER triggers fire when the whole
// statement has run), so an entry and its postings written by separate statements are refused at
// the first of them. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger journal_entries_balanced on journal_entries`.execute(db);
  await sql`drop trigger postings_balanced on postings`.execute(db);
  await sql`drop function check_entry_balanced()`.execute(db);

  // One query per statement: each entry of the statement's new entries (or of its new postings),
  // with the sum and count of all its postings, the first unbalanced one raised. The postings of
  // each entry are read through the (entry_id, account_id) index, one lookup per entry (lateral):
  // a join the planner is free to plan would scan every posting for a transition table it cannot
  // estimate (a single transfer then cost milliseconds).
  for (const [table, transition, column] of [
    ['journal_entries', 'new_entries', 'id'],
    ['postings', 'new_postings', 'entry_id'],
  ] as const) {
    await sql
      .raw(
        `
      create function check_${table}_balanced() returns trigger language plpgsql as $$
      declare
        bad record;
      begin
        select touched.id, lines.total, lines.count into bad
        from (select distinct ${column} as id from ${transition}) as touched
        cross join lateral (
          select coalesce(sum(line.amount), 0) as total, count(*) as count from postings as line where line.entry_id = touched.id
        ) as lines
        where lines.total <> 0 or lines.count < 2
        limit 1;
        if found then
          raise exception 'journal entry % is not balanced (sum %, % postings)', bad.id, bad.total, bad.count using errcode = '23514';
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_balanced after insert on ${table}
        referencing new table as ${transition} for each statement execute function check_${table}_balanced()`,
      )
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
