import { sql } from 'kysely';
import type { Paginated } from '../../shared/contracts/common';
import type { DB } from '../db/database';
import type { PageRequest } from '../db/paginate';

// The audit log's read side (the writer is audit.ts): the back office's list and its filter choices.

export interface AuditFilter {
  actorId?: string | undefined;
  targetUserId?: string | undefined;
  action?: string | undefined;
}

function filtered(db: DB, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
  if (filter.targetUserId) query = query.where('target_user_id', '=', filter.targetUserId);
  if (filter.action) query = query.where('action', '=', filter.action);
  return query;
}

/**
 * One page of the log, newest first, and the number of matching records. The page and the count
 * are two queries so the page stops at its limit in the (filter, at) index instead of reading the
 * whole log for a window count.
 */
export async function listAuditEntries(db: DB, filter: AuditFilter, page: PageRequest) {
  const [items, counted] = await Promise.all([
    filtered(db, filter)
      .select([
        sql<string>`id::text`.as('id'),
        'at',
        'actor_id',
        'actor_email',
        'action',
        'target_user_id',
        'target_type',
        'target_id',
        'before',
        'after',
        'reason',
        'ip',
        'erased',
      ])
      .orderBy('at', 'desc')
      // The column, not the text `id` selected above (ORDER BY prefers an output name): as text, the
      // records of one moment came out of order whenever their ids crossed a power of ten (999, 1000).
      .orderBy('audit_log.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    filtered(db, filter)
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, page: page.page, pageSize: page.pageSize, total: counted.total } satisfies Paginated<unknown>;
}

/** Every action the log holds: a loose index scan over audit_log_action_idx, one probe per distinct action. */
export async function distinctActions(db: DB): Promise<string[]> {
  const result = await sql<{ action: string }>`
    with recursive distinct_actions as (
      (select action from audit_log order by action limit 1)
      union all
      select (select l.action from audit_log l where l.action > d.action order by l.action limit 1)
      from distinct_actions d where d.action is not null
    )
    select action from distinct_actions where action is not null`.execute(db);
  return result.rows.map((row) => row.action);
}

/** Staff emails by id: who acted, for records whose own copy of the email was erased. */
export async function emailsOf(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}
