import { sql, type Selectable } from 'kysely';
import type { CardRequestStatus } from '../../shared/contracts/cards';
import type { DB } from '../db/database';
import { type PageRequest, paginate } from '../db/paginate';
import type { CardRequestsTable } from '../db/schema';

export type CardRequestRow = Selectable<CardRequestsTable>;
export type CustomerColumns = { first_name: string; last_name: string; email: string };

/** A customer has at most one pending request per card type. */
export const OPEN_REQUEST_CONSTRAINT = 'card_requests_one_open';

export function insertCardRequest(db: DB, userId: string, cardType: CardRequestRow['card_type']): Promise<CardRequestRow> {
  return db.insertInto('card_requests').values({ user_id: userId, card_type: cardType }).returningAll().executeTakeFirstOrThrow();
}

export function listCustomerCardRequests(db: DB, userId: string, limit: number): Promise<CardRequestRow[]> {
  return db.selectFrom('card_requests').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
}

/** The staff queue: oldest first, with the customer's name. */
export function cardRequestQueue(db: DB, status: CardRequestStatus | 'all', page: PageRequest) {
  let query = db
    .selectFrom('card_requests')
    .innerJoin('users', 'users.id', 'card_requests.user_id')
    .selectAll('card_requests')
    .select(['users.first_name', 'users.last_name', 'users.email']);
  if (status !== 'all') query = query.where('card_requests.status', '=', status);
  return paginate(query.orderBy('card_requests.created_at', 'asc').orderBy('card_requests.id'), page);
}

/** Locks the request for a status change (use inside a transaction). */
export function lockCardRequest(trx: DB, id: string): Promise<CardRequestRow | undefined> {
  return trx.selectFrom('card_requests').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function setCardRequestStatus(
  trx: DB,
  id: string,
  change: { status: CardRequestStatus; note: string | null; decidedBy: string },
): Promise<CardRequestRow> {
  return trx
    .updateTable('card_requests')
    .set({ status: change.status, note: change.note, decided_by: change.decidedBy, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function cardRequestOwner(db: DB, userId: string): Promise<{ email: string; first_name: string }> {
  return db.selectFrom('users').select(['email', 'first_name']).where('id', '=', userId).executeTakeFirstOrThrow();
}
