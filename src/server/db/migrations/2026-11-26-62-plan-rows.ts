import { type Kysely, sql } from 'kysely';

// The back office's broad searches show PostgreSQL's estimate of their matches (ADR 027). It was a
// second statement (an EXPLAIN sent after the page's); plan_rows() lets the page's own statement
// read it: it plans a query that takes one text parameter, with that value, and answers the
// planner's row estimate. EXPLAIN without ANALYZE runs nothing, and EXECUTE takes one statement.
// Volatile: PostgreSQL allows EXPLAIN only in a volatile function. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function plan_rows(query text, value text) returns bigint language plpgsql volatile as $$
    declare
      plan json;
    begin
      execute 'explain (format json) ' || query into plan using value;
      return (plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric::bigint;
    end $$`.execute(db);
}
