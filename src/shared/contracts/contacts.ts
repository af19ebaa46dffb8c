import { z } from 'zod';
import { EMAIL_LENGTH_MAX, MESSAGE_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, TEXT_LENGTH_MAX } from '../limits';
import { ZPage, requiredText } from './common';
import { CONTACT_HONEYPOT_FIELD } from './contact-messages';

export * from './contact-messages';

// Contact messages (spec sections 2, 5, 7, 8): the public form, the bank's inbox in the back office.

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
