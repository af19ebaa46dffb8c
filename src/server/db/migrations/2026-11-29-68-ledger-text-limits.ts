import { type Kysely, sql } from 'kysely';

// The ledger's texts get a length limit in the database. The API already refuses longer input
// (TEXT_LENGTH_MAX, 500, for a description; names are shorter), but entries and postings are
// append-only: a text written by mistake (a bug composing a memo, a tool writing directly) could
// never be removed or shortened. 1,000 characters leaves room for the memos the bank composes
// ("Standing order from <name>: <description>"). NOT VALID: the limit holds for every row written
// from now on; existing rows are not rescanned (a large journal would be read in full, and a row
// that failed could not be corrected anyway). Frozen once landed.
const LEDGER_TEXT_LENGTH_MAX = 1000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const max = sql.lit(LEDGER_TEXT_LENGTH_MAX);
  await sql`alter table journal_entries add constraint journal_entries_description_length check (length(description) <= ${max}) not valid`.execute(db);
  await sql`alter table postings add constraint postings_memo_length check (length(memo) <= ${max}) not valid`.execute(db);
  await sql`alter table postings add constraint postings_counterparty_length check (length(counterparty) <= ${max}) not valid`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
