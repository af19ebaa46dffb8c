import { type Kysely, sql } from 'kysely';

// The customer's history search by words (issue 14, ADR 013 and ADR 021 amended): every word typed
// must be a word of the line's memo and counterparty, of its entry's description or of a staff
// note, the last word typed may be the start of one ("salary nov"). The four trigram indexes of
// migration 31 found any substring, but every payment computed and indexed about forty trigrams a
// text: about 40% of PostgreSQL's CPU of a bulk batch went to them. A word index writes a handful
// of entries a text.
//
// The words are made by C-coded functions only, no text search parser and no ICU: ASCII spaces
// and punctuation become one space (one regexp_replace), letters are lowercased by the built-in
// "pg_c_utf8" collation (Unicode's simple case mapping: the database's C locale would leave Å, Ö, Í
// as they are, and ICU's lower() is what made migration 58's search_words() cost about 7 to 10 µs a
// text), and the text is cut at the spaces (string_to_array). A character beyond ASCII stays inside
// its word, as with search_words(); an email address, a host, a hyphenated word or a decimal number
// is several words. About 2.4 µs a text (best of five over 100,000 texts on the shared machine),
// against 3.3 µs for to_tsvector('simple') after the same two steps (its parser, which alone would
// keep an email address whole) and 4.7 µs for search_words().
// history_query() builds the query from what the customer typed with the same history_split(), so
// both sides agree. A word is at most one field's length: the contracts keep every text that reaches
// these columns to 500 characters (2,000 bytes), under GIN's limit of about 2,700 bytes an entry.
//
// One expression index per table, no stored column: postings index their memo and counterparty
// together (one text, one call), journal entries their description, staff notes theirs. The
// query names the same expressions (transactions/repository.ts), which the planner matches once it
// has inlined history_words(). pg_trgm stays installed (nothing uses it now; dropping an extension
// is not this migration's business). Frozen once landed.
const SEPARATORS = String.raw`[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Indexing a long journal's words outlasts the app's statement limit; lifted for this transaction.
  // A bank with a long journal may build the functions and indexes beforehand without blocking
  // postings (ADR 013, "Amended: words"): they are then found here and kept.
  await sql`set local statement_timeout = 0`.execute(db);
  // pg_c_utf8 is PostgreSQL 17's; on 15 and 16 (still supported, README) ICU lowercases instead,
  // as migration 58 does: slower to write, the same words on both sides.
  const version = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  const collation = Number(version.rows[0]?.server_version_num ?? 0) >= 170000 ? 'pg_c_utf8' : '"und-x-icu"';
  await sql
    .raw(
      `
    create or replace function history_split(text) returns text[]
    language sql immutable parallel safe
    return string_to_array(btrim(lower(regexp_replace($1, '${SEPARATORS}', ' ', 'g') collate ${collation})), ' ')`,
    )
    .execute(db);
  await sql`
    create or replace function history_words(text) returns tsvector
    language sql immutable parallel safe
    return array_to_tsvector(history_split($1))`.execute(db);
  // Every word whole, the last one a word or a word's start: "(w | w:*)" finds the same lines as
  // "w:*", but the planner estimates the whole word from the index's statistics, where a prefix
  // alone gets a fixed 2% while those statistics hold fewer than 100 common words (a young bank's
  // narrow vocabulary): for a common payee (one line in eight) that chose a nested loop over every
  // account, 269 ms against 44 ms for the page (bench/history-search.ts). No word at all is an
  // empty query (matches nothing).
  await sql`
    create or replace function history_query(search text) returns tsquery
    language sql immutable parallel safe
    return (
      select coalesce(string_agg(case when ordinal = total then format('(%1$s | %1$s:*)', quote_literal(word)) else quote_literal(word) end, ' & ' order by ordinal), '')::tsquery
      from (select word, ordinal, count(*) over () as total from unnest(history_split(search)) with ordinality as split(word, ordinal)) as words)`.execute(db);
  await sql`create index if not exists postings_history_words_idx on postings using gin (history_words(coalesce(memo, '') || ' ' || coalesce(counterparty, '')))`.execute(
    db,
  );
  await sql`create index if not exists journal_entries_history_words_idx on journal_entries using gin (history_words(description))`.execute(db);
  await sql`create index if not exists entry_notes_history_words_idx on entry_notes using gin (history_words(description))`.execute(db);
  await sql`drop index postings_memo_trgm_idx`.execute(db);
  await sql`drop index postings_counterparty_trgm_idx`.execute(db);
  await sql`drop index journal_entries_description_trgm_idx`.execute(db);
  await sql`drop index entry_notes_description_trgm_idx`.execute(db);
}
