import { sql } from 'kysely';
import type { ApprovalStatus } from '../../shared/contracts/approvals';
import type { Paginated } from '../../shared/contracts/common';
import type { DB } from '../db/database';
import { type PageRequest, paginate } from '../db/paginate';

// Every query of the approval queue (issue 15, ADR 023).

export interface ApprovalRow {
  id: string;
  kind: string;
  requested_by: string;
  requested_at: Date;
  expires_at: Date;
  customer_id: string | null;
  subject_user_id: string | null;
  summary: string;
  payload: unknown;
  status: string;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
}

/** A row with the names of the people it involves (the customer's as the users table has them: anonymized once closed). */
export interface ApprovalListRow extends ApprovalRow {
  requester_first: string;
  requester_last: string;
  requester_email: string;
  customer_first: string | null;
  customer_last: string | null;
  customer_email: string | null;
  decider_first: string | null;
  decider_last: string | null;
  decider_email: string | null;
}

const COLUMNS = [
  'a.id',
  'a.kind',
  'a.requested_by',
  'a.requested_at',
  'a.expires_at',
  'a.customer_id',
  'a.subject_user_id',
  'a.summary',
  'a.payload',
  'a.status',
  'a.decided_by',
  'a.decided_at',
  'a.reason',
] as const;

function listQuery(db: DB) {
  return db
    .selectFrom('approvals as a')
    .innerJoin('users as r', 'r.id', 'a.requested_by')
    .leftJoin('users as c', 'c.id', 'a.customer_id')
    .leftJoin('users as d', 'd.id', 'a.decided_by')
    .select([
      ...COLUMNS,
      'r.first_name as requester_first',
      'r.last_name as requester_last',
      'r.email as requester_email',
      'c.first_name as customer_first',
      'c.last_name as customer_last',
      'c.email as customer_email',
      'd.first_name as decider_first',
      'd.last_name as decider_last',
      'd.email as decider_email',
    ]);
}

/** Newest first; pending ones past their time are expired by the caller first (expireDue). */
export async function listApprovals(db: DB, filter: { status?: ApprovalStatus; customerId?: string }, page: PageRequest): Promise<Paginated<ApprovalListRow>> {
  let query = listQuery(db);
  if (filter.status) query = query.where('a.status', '=', filter.status);
  if (filter.customerId) query = query.where('a.customer_id', '=', filter.customerId);
  return paginate(query.orderBy('a.requested_at', 'desc').orderBy('a.id', 'desc'), page) as Promise<Paginated<ApprovalListRow>>;
}

export function findApproval(db: DB, id: string): Promise<ApprovalListRow | undefined> {
  return listQuery(db).where('a.id', '=', id).executeTakeFirst() as Promise<ApprovalListRow | undefined>;
}

/** The approvals of one journal entry (its details name the approval that posted it). */
export function approvalsByIds(db: DB, ids: string[]): Promise<ApprovalListRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return listQuery(db).where('a.id', 'in', ids).execute() as Promise<ApprovalListRow[]>;
}

/** Locks one request (a decision is made under this lock, in the transaction that carries it out). */
export function lockApproval(trx: DB, id: string): Promise<ApprovalRow | undefined> {
  return trx.selectFrom('approvals as a').select(COLUMNS).where('a.id', '=', id).forUpdate().executeTakeFirst() as Promise<ApprovalRow | undefined>;
}

/** Decides a request that is still pending; answers whether it was (false: someone decided first). */
export async function decide(
  trx: DB,
  id: string,
  decision: { status: Exclude<ApprovalStatus, 'pending'>; decidedBy: string | null; decidedAt: Date; reason?: string | null },
): Promise<boolean> {
  const result = await trx
    .updateTable('approvals')
    .set({ status: decision.status, decided_by: decision.decidedBy, decided_at: decision.decidedAt, reason: decision.reason ?? null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function storeOutcome(db: DB, id: string, outcome: unknown): Promise<void> {
  await db
    .updateTable('approvals')
    .set({ outcome: JSON.stringify(outcome) })
    .where('id', '=', id)
    .execute();
}

/** Marks every pending request past its time expired; answers their ids (audited by the caller). */
export async function expireDue(trx: DB, now: Date): Promise<Array<{ id: string; customer_id: string | null; kind: string }>> {
  return trx
    .updateTable('approvals')
    .set({ status: 'expired', decided_at: now })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .returning(['id', 'customer_id', 'kind'])
    .execute();
}

export async function countPending(db: DB, now: Date): Promise<number> {
  const row = await db
    .selectFrom('approvals')
    .select(sql<string>`count(*)`.as('count'))
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
