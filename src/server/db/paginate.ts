import { type SelectQueryBuilder, sql } from 'kysely';
import type { Paginated } from '../../shared/contracts/common';

export interface PageRequest {
  page: number;
  pageSize: number;
}

/**
 * One page of an ordered query and the total count, in one round trip (`count(*) over()`, as
 * fastify/demo's repositories do). A page past the end has no row to carry the total, so only then
 * is it counted on its own.
 */
export async function paginate<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, page: PageRequest): Promise<Paginated<O>> {
  const rows: Array<Record<string, unknown>> = await query
    .select(sql<string>`count(*) over()`.as('total_count'))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  let total = Number(rows[0]?.total_count ?? 0);
  if (rows.length === 0 && page.page > 1) {
    const counted = await query
      .clearSelect()
      .clearOrderBy()
      .select(sql<string>`count(*)`.as('total_count'))
      .executeTakeFirst();
    total = Number((counted as { total_count?: string } | undefined)?.total_count ?? 0);
  }
  const items = rows.map(({ total_count: _total, ...row }) => row as unknown as O);
  return { items, page: page.page, pageSize: page.pageSize, total };
}
