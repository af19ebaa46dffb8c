import { type RawBuilder, type SqlBool, sql } from 'kysely';

// Searching by words (ADR 027): the stored words of migration 58's search_words() and
// the query its search_query() builds from what someone typed (every word whole, the last one a
// word's start), split the same way on both sides.

/**
 * A character search_words() keeps inside a word: an ASCII letter or digit, or anything beyond
 * ASCII. ASCII spaces and punctuation only separate words (control characters never get here:
 * the contracts refuse them).
 */
const WORD_CHARACTER = /[A-Za-z0-9]|[^\x20-\x7e]/;

/** What search_words() and search_query() split at: ASCII control characters, spaces and punctuation. */
// eslint-disable-next-line no-control-regex -- the separators of search_query(), control characters included
const SEPARATORS = /[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;

/**
 * The words of a search as search_query() makes them (lowercase, split at ASCII punctuation). For
 * weighing a search against the planner's statistics only: what matches is always decided by SQL.
 */
export const wordsOf = (search: string): string[] =>
  search
    .toLowerCase()
    .split(SEPARATORS)
    .filter((word) => word !== '');

/** Whether a search has a word in it at all (punctuation alone has none and matches nothing). */
export const hasWord = (search: string) => WORD_CHARACTER.test(search);

/** The stored words `column` (a tsvector with a GIN index) match a search with at least one word. */
export function matchesWords(column: RawBuilder<unknown>, search: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} @@ search_query(${search})`;
}

/**
 * The same match with the query built once per statement, as a value the planner does not see (an
 * InitPlan): every plan of the statement is then the same whatever the search, so a prepared
 * statement keeps its generic plan instead of being planned again on every call. Only where the
 * statement's shape does not depend on how many rows match (ADR 027).
 */
export function matchesWordsUnseen(column: RawBuilder<unknown>, search: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} @@ (select search_query(${search}))`;
}
