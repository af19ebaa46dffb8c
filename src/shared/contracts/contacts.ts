import { z } from 'zod';
import { EMAIL_LENGTH_MAX, MESSAGE_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, TEXT_LENGTH_MAX } from '../limits';
import { controlCharactersMessage, envelope, paginated, requiredText, safeString, SINGLE_LINE_TEXT, ZPage, ZTimestamp } from './common';
import { CONTACT_HONEYPOT_FIELD } from './contact-messages';

export * from './contact-messages';

// Contact messages (spec sections 2, 5, 7, 8): the public form, the bank's inbox in the back office.

export const ZContactRequest = z.object({
  name: requiredText('Name', NAME_LENGTH_MAX).describe("The sender's name."),
  email: z
    .string({ message: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(EMAIL_LENGTH_MAX, `Email must be at most ${EMAIL_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address'))
    .describe('Where the bank answers.'),
  subject: requiredText('Subject', TEXT_LENGTH_MAX / 2).describe('The subject.'),
  message: requiredText('Message', MESSAGE_LENGTH_MAX, 'Message is required', { multiline: true }).describe('The message; line breaks kept.'),
  phone: z
    .string()
    .trim()
    .max(PHONE_LENGTH_MAX, `Phone must be at most ${PHONE_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Phone'))
    .optional()
    .describe('A phone number to call back, optional.'),
  [CONTACT_HONEYPOT_FIELD]: safeString('Website', TEXT_LENGTH_MAX).optional().describe('Leave it out: only bots fill it in, and their message is dropped.'),
});
export type ContactRequest = z.infer<typeof ZContactRequest>;

export const ZContactListQuery = ZPage;

export const ZContact = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  createdAt: ZTimestamp,
  /** null = new: nobody in the back office has opened it yet. */
  readAt: ZTimestamp.nullable().describe('When staff first opened it; null: new.'),
});
export type ContactDto = z.infer<typeof ZContact>;

export const ZContactList = paginated(ZContact).extend({
  /** Messages nobody has opened yet (read_at is null). */
  unread: z.number().int().describe('Messages nobody has opened yet.'),
});
export type ContactList = z.infer<typeof ZContactList>;

/** The public form's answer: the new message's id (null when a bot's message was dropped). */
export const ZContactSent = envelope(z.object({ _id: z.string() }).nullable().describe("The new message's id; null when a bot's message was dropped."));
export const ZContactPage = envelope(ZContactList);
export const ZContactAnswer = envelope(ZContact);
export const ZContactDeleted = envelope(z.object({ _id: z.string() }));
