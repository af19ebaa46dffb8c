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

/** Whether a search has a word in it at all (punctuation alone has none and matches nothing). */
export const hasWord = (search: string) => WORD_CHARACTER.test(search);

/** The stored words `column` (a tsvector with a GIN index) match a search with at least one word. */
export function matchesWords(column: RawBuilder<unknown>, search: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} @@ search_query(${search})`;
}
