import { type Kysely, sql } from 'kysely';

// The back office's broad name search (ADR 027): a word shared by thousands of customers is paged
// by walking the newest-first index and keeping the rows whose words match. Each row walked was a
// visit to the table for its words (about 10,000 visits for one page of "zimmerman" at a million
// customers); with the words in the index itself the walk reads only the index. The new index
// replaces the old one (same key, same order), so the users table keeps its number of indexes.
// Built before the old one goes, so the list never lacks one. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A million customers take longer to index than the app's statement limit: lifted for this transaction.
  await sql`set local statement_timeout = 0`.execute(db);
  await sql`create index users_created_at_words_idx on users (created_at desc, id) include (search_words)`.execute(db);
  await sql`drop index users_created_at_idx`.execute(db);
}
