import { sql, type Selectable } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CONTACT_DELETED_MESSAGE,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_PER_MINUTE_MAX,
  CONTACT_SENT_MESSAGE,
  type ContactDto,
  type ContactList,
  ZContactListQuery,
  ZContactRequest,
} from '../../shared/contracts/contacts';
import { audit } from '../audit/audit';
import { requireAdmin } from '../auth/sessions';
import type { ContactMessagesTable } from '../db/schema';
import { AppError, parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';
import { plainMail } from '../mail/templates';

type Row = Selectable<ContactMessagesTable>;

const toDto = (row: Row): ContactDto => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  subject: row.subject,
  message: row.message,
  createdAt: new Date(row.created_at).toISOString(),
  readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
});

/** The bank's own inbox: the configured admin address, else the address in MAIL_FROM. */
export function bankInbox(config: { adminEmail?: string; mailFrom: string }): string {
  if (config.adminEmail) return config.adminEmail;
  return config.mailFrom.match(/<([^>]+)>/)?.[1] ?? config.mailFrom;
}

const ZId = z.object({ id: z.uuid() });
const contactId = (params: unknown): string => {
  const parsed = ZId.safeParse(params);
  if (!parsed.success) throw new AppError('not_found', 'Contact not found');
  return parsed.data.id;
};

/** One line of a header-like field: a visitor must not be able to add lines to the mail's subject. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

export async function contactRoutes(app: FastifyInstance): Promise<void> {
  app.post('/contacts', { config: perMinute(CONTACT_PER_MINUTE_MAX) }, async (request, reply) => {
    const input = parseInput(ZContactRequest, request.body);
    // A filled honeypot is a bot: answer as if it worked so it learns nothing, keep nothing.
    if (input[CONTACT_HONEYPOT_FIELD]) {
      request.log.info('contact message dropped: honeypot filled');
      return reply.status(201).send({ data: null, message: CONTACT_SENT_MESSAGE });
    }
    const row = await app.db
      .insertInto('contact_messages')
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone || null,
        subject: input.subject,
        message: input.message,
        ip: request.ip ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The message is stored: a mail failure only delays the bank noticing it in the back office.
    await app.mailer
      .send(
        plainMail(
          { bankName: app.config.bankName, publicUrl: app.config.publicUrl },
          bankInbox(app.config),
          `new contact message: ${oneLine(row.subject)}`,
          `From: ${oneLine(row.name)} <${row.email}>${row.phone ? `\nPhone: ${row.phone}` : ''}\nSubject: ${oneLine(row.subject)}\n\n${row.message}\n\nRead and answer it in the back office: ${app.config.publicUrl}/admin/contacts`,
        ),
      )
      .catch((error: unknown) => request.log.error({ err: error }, 'contact notification mail failed'));
    return reply.status(201).send({ data: { _id: row.id }, message: CONTACT_SENT_MESSAGE });
  });

  app.get('/contacts', { preHandler: requireAdmin }, async (request) => {
    const query = parseInput(ZContactListQuery, request.query);
    const [rows, counts] = await Promise.all([
      app.db
        .selectFrom('contact_messages')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      app.db
        .selectFrom('contact_messages')
        .select([sql<number>`count(*)::int`.as('total'), sql<number>`(count(*) filter (where read_at is null))::int`.as('unread')])
        .executeTakeFirstOrThrow(),
    ]);
    const data: ContactList = { items: rows.map(toDto), page: query.page, pageSize: query.pageSize, total: counts.total, unread: counts.unread };
    return { data };
  });

  /** Opening a message in the back office marks it read (the dashboard counts unread ones). */
  app.post('/contacts/:id/read', { preHandler: requireAdmin }, async (request) => {
    const id = contactId(request.params);
    const row = await app.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('contact_messages').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!current) throw new AppError('not_found', 'Contact not found');
      if (current.read_at) return current;
      const updated = await trx
        .updateTable('contact_messages')
        .set({ read_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, request, {
        action: 'contact.read',
        targetType: 'contact_message',
        targetId: id,
        before: { readAt: null },
        after: { readAt: updated.read_at },
      });
      return updated;
    });
    return { data: toDto(row) };
  });

  app.delete('/contacts/:id', { preHandler: requireAdmin }, async (request) => {
    const id = contactId(request.params);
    await app.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('contact_messages').where('id', '=', id).returningAll().executeTakeFirst();
      if (!deleted) throw new AppError('not_found', 'Contact not found');
      // The audit keeps who wrote and what about, not the message body the bank chose to delete.
      await audit(trx, request, {
        action: 'contact.delete',
        targetType: 'contact_message',
        targetId: id,
        before: { name: deleted.name, email: deleted.email, subject: deleted.subject, createdAt: new Date(deleted.created_at).toISOString() },
      });
    });
    return { data: { _id: id }, message: CONTACT_DELETED_MESSAGE };
  });
}
