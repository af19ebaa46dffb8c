import { z } from 'zod';
import { EMAIL_LENGTH_MAX, MESSAGE_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, TEXT_LENGTH_MAX } from '../limits';
import { ZPage, requiredText } from './common';

// Contact messages (spec sections 2, 5, 7, 8): the public form, the bank's inbox in the back office.

export const CONTACT_SENT_MESSAGE = 'Your message has been sent successfully!';
export const CONTACT_FAILED_MESSAGE = 'There was an error sending your message. Please try again.';
export const CONTACT_DELETED_MESSAGE = 'Contact deleted';
export const CONTACT_DELETE_FAILED_MESSAGE = 'Error deleting contact';

/** Name of the hidden field that only bots fill in (the form hides it from people and screen readers). */
export const CONTACT_HONEYPOT_FIELD = 'website';
/** Messages one address may send per minute. */
export const CONTACT_PER_MINUTE_MAX = 5;

export const ZContactRequest = z.object({
  name: requiredText('Name', NAME_LENGTH_MAX),
  email: z
    .string({ message: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(EMAIL_LENGTH_MAX, `Email must be at most ${EMAIL_LENGTH_MAX} characters`)
    .pipe(z.email('Please enter a valid email address')),
  subject: requiredText('Subject', TEXT_LENGTH_MAX / 2),
  message: requiredText('Message', MESSAGE_LENGTH_MAX),
  phone: z.string().trim().max(PHONE_LENGTH_MAX, `Phone must be at most ${PHONE_LENGTH_MAX} characters`).optional(),
  [CONTACT_HONEYPOT_FIELD]: z.string().max(TEXT_LENGTH_MAX).optional(),
});
export type ContactRequest = z.infer<typeof ZContactRequest>;

export const ZContactListQuery = ZPage;

export interface ContactDto {
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  createdAt: string;
  readAt: string | null;
}

export interface ContactList {
  items: ContactDto[];
  page: number;
  pageSize: number;
  total: number;
  /** Messages nobody has opened yet (read_at is null). */
  unread: number;
}
