import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database';
import { type PageRequest, paginate } from '../db/paginate';
import type { ContactMessagesTable } from '../db/schema';

export type ContactRow = Selectable<ContactMessagesTable>;

export function insertContactMessage(
  db: DB,
  message: { name: string; email: string; phone: string | null; subject: string; message: string; ip: string | null },
): Promise<ContactRow> {
  return db.insertInto('contact_messages').values(message).returningAll().executeTakeFirstOrThrow();
}

/** The inbox, newest first. */
export function contactPage(db: DB, page: PageRequest) {
  return paginate(db.selectFrom('contact_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

/** Messages nobody in the back office has opened yet. */
export async function unreadCount(db: DB): Promise<number> {
  const row = await db
    .selectFrom('contact_messages')
    .select(sql<number>`count(*)::int`.as('unread'))
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.unread;
}

/** Locks a message for a change (use inside a transaction). */
export function lockContactMessage(trx: DB, id: string): Promise<ContactRow | undefined> {
  return trx.selectFrom('contact_messages').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function markContactRead(trx: DB, id: string): Promise<ContactRow> {
  return trx
    .updateTable('contact_messages')
    .set({ read_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function deleteContactMessage(trx: DB, id: string): Promise<ContactRow | undefined> {
  return trx.deleteFrom('contact_messages').where('id', '=', id).returningAll().executeTakeFirst();
}
