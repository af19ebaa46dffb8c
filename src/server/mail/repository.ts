import type { Selectable } from 'kysely';
import type { DB } from '../db/database';
import type { MailOutboxTable } from '../db/schema';

export type OutboxRow = Selectable<MailOutboxTable>;

const ERROR_LENGTH_MAX = 1000;

export function insertOutboxMail(
  db: DB,
  mail: { messageId: string; to: string; subject: string; text: string; expiresAt: Date | null },
): Promise<{ id: number }> {
  return db
    .insertInto('mail_outbox')
    .values({ message_id: mail.messageId, to_address: mail.to, subject: mail.subject, body: mail.text, expires_at: mail.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function findOutboxMail(db: DB, id: number): Promise<OutboxRow | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The body left on a row whose mail was delivered by SMTP or dropped: its codes and links are gone. */
export const CLEARED_BODY = '';

/**
 * Sent: only a pending row moves (a repeated job finds it sent and does nothing). `clearBody`: the
 * codes and links it carried leave the database with the mail (kept only by the development
 * transport, whose mailbox is the outbox).
 */
export async function markMailSent(db: DB, id: number, at: Date, options: { clearBody: boolean }): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: at,
      attempts: eb('attempts', '+', 1),
      last_error: null,
      ...(options.clearBody ? { body: CLEARED_BODY } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Its code or link no longer works: dropped, never sent late, and its body with it. */
export async function markMailExpired(db: DB, id: number): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: 'expired', body: CLEARED_BODY }).where('id', '=', id).where('status', '=', 'pending').execute();
}

/** A failed try, kept on the row for whoever looks (the job retries it). */
export async function recordMailFailure(db: DB, id: number, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error.slice(0, ERROR_LENGTH_MAX) }))
    .where('id', '=', id)
    .execute();
}

/** The mail delivered to the development transport, newest first (/dev/mailbox, tests). */
export function sentMail(db: DB, limit: number): Promise<OutboxRow[]> {
  return db.selectFrom('mail_outbox').selectAll().where('status', '=', 'sent').orderBy('id', 'desc').limit(limit).execute();
}

/** Sent and expired mail created before `before` (the outbox's purge). */
export async function deleteSettledMail(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('status', '<>', 'pending').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
