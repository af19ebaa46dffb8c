import { type Kysely, sql } from 'kysely';

// The back office's journal by amount (ADR 027). An amount filter was a filter on the seq walk
// (migration 47: "every journal index slows every posting"), and an exact amount, the way staff
// look for one payment, walked the whole journal back: 2.5 s at 2.5 million entries. The index
// below finds an amount, or a narrow range of them, directly; its (amount, seq) pairs are enough to
// pick the page's entries without reading them (journal/repository.ts reads the keys first).
// So that postings do not pay for it, it takes the place of journal_entries_kind_booked_idx
// (kind, booked_at desc): no statement reads that one since the journal pages by seq (a kind walks
// (kind, seq)) and the dashboard's kinds have their own partial index (migration 59).
// Built before the other goes. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A long journal takes longer to index than the app's statement limit: lifted for this transaction.
  await sql`set local statement_timeout = 0`.execute(db);
  await sql`create index journal_entries_amount_seq_idx on journal_entries (amount, seq desc)`.execute(db);
  await sql`drop index journal_entries_kind_booked_idx`.execute(db);
}
