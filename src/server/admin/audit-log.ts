import { type Expression, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { AuditEntryDto, AuditFilters, AuditList, ZAuditQuery } from '../../shared/contracts/admin';
import type { DB } from '../db/database';
import { badRequest, notFound } from '../lib/errors';

type Query = z.output<typeof ZAuditQuery>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer filter accepts what an admin has at hand: an id, an email or an account number. */
async function resolveCustomer(db: DB, customer: string): Promise<string> {
  let found: { id: string } | undefined;
  if (UUID.test(customer)) return customer.toLowerCase();
  if (/^\d{10}$/.test(customer)) {
    const account = await db
      .selectFrom('ledger_accounts')
      .select('owner_id')
      .where('number', '=', customer)
      .where('owner_id', 'is not', null)
      .executeTakeFirst();
    found = account?.owner_id ? { id: account.owner_id } : undefined;
  } else if (customer.includes('@')) {
    found = await db.selectFrom('users').select('id').where('email', '=', customer.toLowerCase()).executeTakeFirst();
  } else {
    throw badRequest('Customer must be a user id, an email address or a 10-digit account number', { customer: 'Not recognised' });
  }
  if (!found) throw notFound('No customer has that email address or account number');
  return found.id;
}

export async function listAudit(db: DB, query: Query): Promise<AuditList> {
  const conditions: Array<Expression<SqlBool>> = [];
  if (query.actorId) conditions.push(sql<SqlBool>`l.actor_id = ${query.actorId}::uuid`);
  if (query.customer) conditions.push(sql<SqlBool>`l.target_user_id = ${await resolveCustomer(db, query.customer)}::uuid`);
  if (query.action) conditions.push(sql<SqlBool>`l.action = ${query.action}`);
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
  const offset = (query.page - 1) * query.pageSize;
  const [rows, counted] = await Promise.all([
    sql<{
      id: string;
      at: Date;
      actor_id: string | null;
      actor_email: string | null;
      action: string;
      target_user_id: string | null;
      target_name: string | null;
      target_type: string | null;
      target_id: string | null;
      before: unknown;
      after: unknown;
      reason: string | null;
      ip: string | null;
    }>`
      select l.id::text as id, l.at, l.actor_id, l.actor_email, l.action, l.target_user_id,
             case when u.id is null then null else u.first_name || ' ' || u.last_name end as target_name,
             l.target_type, l.target_id, l.before, l.after, l.reason, l.ip
      from audit_log l
      left join users u on u.id = l.target_user_id
      where ${where}
      order by l.at desc, l.id desc
      limit ${query.pageSize} offset ${offset}`.execute(db),
    sql<{ total: number }>`select count(*)::int as total from audit_log l where ${where}`.execute(db),
  ]);
  const items: AuditEntryDto[] = rows.rows.map((row) => ({
    id: row.id,
    at: new Date(row.at).toISOString(),
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    action: row.action,
    targetUserId: row.target_user_id,
    targetName: row.target_name,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    reason: row.reason,
    ip: row.ip,
  }));
  return { items, page: query.page, pageSize: query.pageSize, total: counted.rows[0]?.total ?? 0 };
}

/** What the filter controls offer: every staff member and every action the log holds. */
export async function auditFilters(db: DB): Promise<AuditFilters> {
  const staff = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name'])
    .where('is_admin', '=', true)
    .orderBy('email')
    .limit(500)
    .execute();
  // A loose index scan over audit_log_action_idx: one probe per distinct action, however long the log.
  const actions = await sql<{ action: string }>`
    with recursive distinct_actions as (
      (select action from audit_log order by action limit 1)
      union all
      select (select l.action from audit_log l where l.action > d.action order by l.action limit 1)
      from distinct_actions d where d.action is not null
    )
    select action from distinct_actions where action is not null`.execute(db);
  return {
    staff: staff.map((member) => ({ id: member.id, email: member.email, name: `${member.first_name} ${member.last_name}` })),
    actions: actions.rows.map((row) => row.action),
  };
}
