import type { z } from 'zod';
import type { AuditFilters, AuditList, ZAuditQuery } from '../../shared/contracts/admin';
import type { AppContext } from '../context';
import { displayNames, findUserByEmail, listStaff } from '../customers/repository';
import { customerKey } from '../customers/service';
import { accountOwner } from '../ledger/accounts';
import { notFound } from '../lib/errors';
import * as repository from './repository';

type AuditQuery = z.output<typeof ZAuditQuery>;

const STAFF_LIST_MAX = 500;

/** The customer filter accepts what an admin has at hand: an id, an email or an account number. */
async function resolveCustomer(ctx: AppContext, customer: string): Promise<string> {
  const key = customerKey(customer);
  if ('id' in key) return key.id;
  const found = 'number' in key ? await accountOwner(ctx.db, key.number) : (await findUserByEmail(ctx.db, key.email))?.id;
  if (!found) throw notFound('No customer has that email address or account number');
  return found;
}

export async function listAudit(ctx: AppContext, query: AuditQuery): Promise<AuditList> {
  const { page, pageSize, actorId, action, customer } = query;
  const targetUserId = customer ? await resolveCustomer(ctx, customer) : undefined;
  const result = await repository.listAuditEntries(ctx.db, { actorId, targetUserId, action }, { page, pageSize });
  const names = await displayNames(ctx.db, [...new Set(result.items.flatMap((row) => (row.target_user_id ? [row.target_user_id] : [])))]);
  // An erased record lost its copy of the actor's email with its personal part; the actor's id still names them.
  const actors = await repository.emailsOf(ctx.db, [...new Set(result.items.flatMap((row) => (row.erased && row.actor_id ? [row.actor_id] : [])))]);
  return {
    ...result,
    items: result.items.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      actorId: row.actor_id,
      actorEmail: row.actor_email ?? (row.actor_id ? (actors.get(row.actor_id) ?? null) : null),
      action: row.action,
      targetUserId: row.target_user_id,
      targetName: (row.target_user_id && names.get(row.target_user_id)) ?? null,
      targetType: row.target_type,
      targetId: row.target_id,
      before: row.before,
      after: row.after,
      reason: row.reason,
      ip: row.ip,
      erased: row.erased,
    })),
  };
}

/** What the filter controls offer: every staff member and every action the log holds. */
export async function auditFilters(ctx: AppContext): Promise<AuditFilters> {
  const [staff, actions] = await Promise.all([listStaff(ctx.db, STAFF_LIST_MAX), repository.distinctActions(ctx.db)]);
  return { staff: staff.map((member) => ({ id: member.id, email: member.email, name: `${member.first_name} ${member.last_name}` })), actions };
}
