import { type Kysely, sql } from 'kysely';

// The back office at a million customers, continued (issue 15, docs/decisions/027-admin-at-a-million.md):
// a trial balance's page N is a range of stored positions, not an offset. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Numbering millions of stored lines takes longer than the app's statement limit: lifted for
  // the migration's own transaction only.
  await sql`set local statement_timeout = 0`.execute(db);
  await sql`set local work_mem = '256MB'`.execute(db);
  // Each line's place in its day's report (1, 2, ... in the report's order, sort_key's order),
  // numbered when the day is closed: page N of a day reads positions (N-1)*size+1 to N*size down
  // one index, however deep the page, instead of skipping (N-1)*size index entries. The export
  // walks the same positions in chunks. The sort_key index has no reader left: dropped before the
  // numbering (one index fewer to maintain for every line written, here and at every close).
  await sql`drop index trial_balance_lines_day_sort_idx`.execute(db);
  await sql`alter table trial_balance_lines add column position integer`.execute(db);
  // Lines already stored are numbered once, here: the append-only trigger is set aside for this
  // statement only, inside the migration's transaction (nothing else can write meanwhile).
  await sql`alter table trial_balance_lines disable trigger trial_balance_lines_append_only`.execute(db);
  await sql`
    update trial_balance_lines l set position = n.position
    from (select day, account_id, row_number() over (partition by day order by sort_key)::int as position from trial_balance_lines) n
    where n.day = l.day and n.account_id = l.account_id`.execute(db);
  await sql`alter table trial_balance_lines enable trigger trial_balance_lines_append_only`.execute(db);
  await sql`alter table trial_balance_lines alter column position set not null`.execute(db);
  await sql`alter table trial_balance_lines add constraint trial_balance_lines_position_check check (position > 0)`.execute(db);
  // Unique: two lines of a day never share a place. It covers the figures, so a page reads the
  // index alone, then joins only its own lines to their accounts and owners.
  await sql`
    create unique index trial_balance_lines_day_position_idx on trial_balance_lines (day, position)
    include (account_id, opening, debits, credits, closing)`.execute(db);
  await sql`analyze trial_balance_lines`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
