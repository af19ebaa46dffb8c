import {
  CONTACT_DELETED_MESSAGE,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_SENT_MESSAGE,
  type ContactDto,
  type ContactList,
  type ContactRequest,
} from '../../shared/contracts/contacts';
import { audit } from '../audit/audit';
import { type ActorContext, type ServiceContext, withDb } from '../context';
import type { PageRequest } from '../db/paginate';
import { inTransaction } from '../db/transaction';
import { notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import * as repository from './repository';

const CONTACT_NOT_FOUND = 'Contact not found';

const toContactDto = (row: repository.ContactRow): ContactDto => ({
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
export function bankInbox(config: { adminEmail?: string | undefined; mailFrom: string }): string {
  if (config.adminEmail) return config.adminEmail;
  return config.mailFrom.match(/<([^>]+)>/)?.[1] ?? config.mailFrom;
}

/** One line of a header-like field: a visitor must not be able to add lines to the mail's subject. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * A visitor writes to the bank: the message is stored and the bank's inbox is told. A filled
 * honeypot is a bot: it is answered as if it worked, so it learns nothing, and nothing is kept.
 */
export async function sendContactMessage(ctx: ServiceContext, input: ContactRequest, ip: string | null): Promise<Outcome<{ _id: string } | null>> {
  if (input[CONTACT_HONEYPOT_FIELD]) {
    ctx.log.info('contact message dropped: honeypot filled');
    return { data: null, message: CONTACT_SENT_MESSAGE, created: true };
  }
  // The message and the bank inbox's notice commit together.
  const row = await inTransaction(ctx.db, async (trx) => {
    const stored = await repository.insertContactMessage(trx, {
      name: input.name,
      email: input.email,
      phone: input.phone || null,
      subject: input.subject,
      message: input.message,
      ip,
    });
    await queueMail(
      withDb(ctx, trx),
      plainMail(
        brandOf(ctx.config),
        bankInbox(ctx.config),
        `new contact message: ${oneLine(stored.subject)}`,
        `From: ${oneLine(stored.name)} <${stored.email}>${stored.phone ? `\nPhone: ${stored.phone}` : ''}\nSubject: ${oneLine(stored.subject)}\n\n${stored.message}\n\nRead and answer it in the back office: ${ctx.config.publicUrl}/admin/contacts`,
      ),
    );
    return stored;
  });
  return { data: { _id: row.id }, message: CONTACT_SENT_MESSAGE, created: true };
}

export async function contactInbox(ctx: ActorContext, page: PageRequest): Promise<ContactList> {
  const [result, unread] = await Promise.all([repository.contactPage(ctx.db, page), repository.unreadCount(ctx.db)]);
  return { ...result, items: result.items.map(toContactDto), unread };
}

/** Opening a message in the back office marks it read (audited; the dashboard counts unread ones). */
export async function markContactRead(ctx: ActorContext, id: string): Promise<ContactDto> {
  const row = await inTransaction(ctx.db, async (trx) => {
    const current = await repository.lockContactMessage(trx, id);
    if (!current) throw notFound(CONTACT_NOT_FOUND);
    if (current.read_at) return current;
    const updated = await repository.markContactRead(trx, id);
    await audit(trx, ctx.actor, {
      action: 'contact.read',
      targetType: 'contact_message',
      targetId: id,
      before: { readAt: null },
      after: { readAt: updated.read_at },
    });
    return updated;
  });
  return toContactDto(row);
}

export async function deleteContact(ctx: ActorContext, id: string): Promise<Outcome<{ _id: string }>> {
  await inTransaction(ctx.db, async (trx) => {
    const deleted = await repository.deleteContactMessage(trx, id);
    if (!deleted) throw notFound(CONTACT_NOT_FOUND);
    // The audit keeps who wrote and what about, not the message body the bank chose to delete.
    await audit(trx, ctx.actor, {
      action: 'contact.delete',
      targetType: 'contact_message',
      targetId: id,
      before: { name: deleted.name, email: deleted.email, subject: deleted.subject, createdAt: new Date(deleted.created_at).toISOString() },
    });
  });
  return { data: { _id: id }, message: CONTACT_DELETED_MESSAGE };
}
