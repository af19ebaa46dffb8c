import { type Kysely, sql } from 'kysely';

// The back office's customer search by words (ADR 027 amended): every word typed must be a word of
// the customer's first name, last name or email address, the last word typed may be the start of
// one ("mary zimm"). The trigram index of migration 06 found any substring, but at a million
// customers walking it cost 12 to 23 ms a search (each common trigram's list is long); a word index
// costs 1.5 to 3 ms, and each new customer writes about five index entries instead of forty.
//
// Words are split at ASCII spaces and punctuation, so letters beyond ASCII (é, ß) stay inside their
// word whatever the database's locale, and lowercased by ICU's rules ("und-x-icu": the database's
// own C locale lowercases only ASCII, Å would stay Å). Both sides split and lowercase the same way:
// search_words() for the stored column, search_query() for what staff type. search_words() is one
// expression, no subquery (null parts are left out, array_to_tsvector drops repeated words): about
// 10 µs a row, against 26 µs for the same with a subquery. Frozen once landed.
const SEPARATORS = String.raw`[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Computing every customer's words and indexing them outlasts the app's statement timeout at a
  // million customers (about 40 s); migrations run in one transaction, so this ends with it.
  await sql`set local statement_timeout = 0`.execute(db);
  await sql
    .raw(
      `
    create function search_words(variadic parts text[]) returns tsvector
    language sql immutable parallel safe
    return array_to_tsvector(array_remove(regexp_split_to_array(lower(array_to_string(parts, ' ') collate "und-x-icu"), '${SEPARATORS}'), ''))`,
    )
    .execute(db);
  // Whole words, but the last one a prefix. No word at all is an empty query (matches nothing).
  await sql
    .raw(
      `
    create function search_query(search text) returns tsquery
    language sql immutable parallel safe
    return (
      select coalesce(string_agg(quote_literal(word) || case when position = total then ':*' else '' end, ' & ' order by position), '')::tsquery
      from (
        select word, row_number() over (order by ordinal) as position, count(*) over () as total
        from regexp_split_to_table(lower(search collate "und-x-icu"), '${SEPARATORS}') with ordinality as split(word, ordinal)
        where word <> '') as words)`,
    )
    .execute(db);
  await sql`alter table users add column search_words tsvector generated always as (search_words(first_name, last_name, email)) stored`.execute(db);
  await sql`create index users_search_words_idx on users using gin (search_words)`.execute(db);
  await sql`drop index users_search_trgm_idx`.execute(db);
  await sql`drop index users_first_name_prefix_idx`.execute(db);
  await sql`drop index users_last_name_prefix_idx`.execute(db);
  await sql`drop index users_email_prefix_idx`.execute(db);
}
