import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database';
import type { PaymentRequestsTable } from '../db/schema';

export type PaymentRequestRow = Selectable<PaymentRequestsTable>;
/** A request with the requester's name (what the payer's list and the notifications show). */
export type PaymentRequestView = PaymentRequestRow & { requester_first_name: string; requester_last_name: string };

/**
 * The customer a `to` names: by email (any case), or by the account number of their checking
 * account (the number a payer sees on /account/receive). One indexed lookup either way; a staff
 * member or a closed customer is nobody here.
 */
export async function findCustomerByTo(db: DB, to: string): Promise<string | null> {
  const query = /^[0-9]+$/.test(to)
    ? db
        .selectFrom('ledger_accounts as a')
        .innerJoin('users as u', 'u.id', 'a.owner_id')
        .select('u.id')
        .where('a.number', '=', to)
        .where('a.kind', '=', 'checking')
    : db.selectFrom('users as u').select('u.id').where('u.email', '=', to);
  const row = await query.where('u.is_admin', '=', false).where('u.closed_at', 'is', null).executeTakeFirst();
  return row?.id ?? null;
}

/** The customer's own checking account number (a request "to yourself" names it). */
export async function ownAccountNumber(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom('ledger_accounts').select('number').where('owner_id', '=', userId).where('kind', '=', 'checking').executeTakeFirst();
  return row?.number ?? null;
}

export async function insertRequest(
  trx: DB,
  row: { id: string; requesterId: string; payerId: string | null; to: string; amountCents: number; note: string | null; createdAt: Date; expiresAt: Date },
): Promise<PaymentRequestRow> {
  return trx
    .insertInto('payment_requests')
    .values({
      id: row.id,
      requester_id: row.requesterId,
      payer_id: row.payerId,
      to_text: row.to,
      amount_cents: row.amountCents,
      note: row.note,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const withRequester = (db: DB) =>
  db
    .selectFrom('payment_requests as r')
    .innerJoin('users as u', 'u.id', 'r.requester_id')
    .selectAll('r')
    .select(['u.first_name as requester_first_name', 'u.last_name as requester_last_name']);

export async function findView(db: DB, id: string): Promise<PaymentRequestView | undefined> {
  return withRequester(db).where('r.id', '=', id).executeTakeFirst();
}

/** A request addressed to this payer, locked for paying or declining (someone else's: undefined). */
export async function lockForPayer(trx: DB, id: string, payerId: string): Promise<PaymentRequestRow | undefined> {
  return trx.selectFrom('payment_requests').selectAll().where('id', '=', id).where('payer_id', '=', payerId).forUpdate().executeTakeFirst();
}

/** A request addressed to this payer, read without a lock (the code step). */
export async function findForPayer(db: DB, id: string, payerId: string): Promise<PaymentRequestView | undefined> {
  return withRequester(db).where('r.id', '=', id).where('r.payer_id', '=', payerId).executeTakeFirst();
}

/** A request this requester sent, locked for cancelling (someone else's: undefined). */
export async function lockForRequester(trx: DB, id: string, requesterId: string): Promise<PaymentRequestRow | undefined> {
  return trx.selectFrom('payment_requests').selectAll().where('id', '=', id).where('requester_id', '=', requesterId).forUpdate().executeTakeFirst();
}

export async function markAnswered(
  trx: DB,
  id: string,
  change: { status: 'paid' | 'declined' | 'cancelled'; entryId: string | null; answeredAt: Date },
): Promise<PaymentRequestRow> {
  return trx
    .updateTable('payment_requests')
    .set({ status: change.status, entry_id: change.entryId, answered_at: change.answeredAt })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
}

type Page = { page: number; pageSize: number };

/**
 * A page of one party's requests and how many they have in all: the count comes with the page (a
 * window count); a page past the end has no rows to carry it, so then it is counted apart.
 */
async function pageWithTotal<Row extends { total: string }>(
  db: DB,
  party: 'payer_id' | 'requester_id',
  id: string,
  rows: Row[],
  page: Page,
): Promise<{ items: Row[]; total: number }> {
  if (rows.length > 0 || page.page === 1) return { items: rows, total: Number(rows[0]?.total ?? 0) };
  const row = await db
    .selectFrom('payment_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(party, '=', id)
    .executeTakeFirstOrThrow();
  return { items: [], total: Number(row.n) };
}

export async function received(db: DB, payerId: string, page: Page): Promise<{ items: PaymentRequestView[]; total: number }> {
  const rows = await withRequester(db)
    .select(sql<string>`count(*) over ()`.as('total'))
    .where('r.payer_id', '=', payerId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return pageWithTotal(db, 'payer_id', payerId, rows, page);
}

export async function sent(db: DB, requesterId: string, page: Page): Promise<{ items: PaymentRequestRow[]; total: number }> {
  const rows = await db
    .selectFrom('payment_requests')
    .selectAll()
    .select(sql<string>`count(*) over ()`.as('total'))
    .where('requester_id', '=', requesterId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return pageWithTotal(db, 'requester_id', requesterId, rows, page);
}

/** The requester's checking account (where a paid request lands), with whether they can still receive. */
export async function requesterAccount(db: DB, requesterId: string): Promise<{ id: string; number: string; closed: boolean } | undefined> {
  const row = await db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.number', 'u.closed_at'])
    .where('a.owner_id', '=', requesterId)
    .where('a.kind', '=', 'checking')
    .executeTakeFirst();
  return row ? { id: row.id, number: row.number ?? '', closed: row.closed_at !== null } : undefined;
}

/** The payer's savings and checking accounts with their balances (the code step checks funds). */
export async function payerAccounts(db: DB, payerId: string) {
  return db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'balance'])
    .where('owner_id', '=', payerId)
    .where('kind', 'in', ['savings', 'checking'])
    .execute();
}
