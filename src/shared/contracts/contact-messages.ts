// Contact messages' wording and limits, without zod, so the public contact page stays light.
export const CONTACT_SENT_MESSAGE = 'Your message has been sent successfully!';
export const CONTACT_FAILED_MESSAGE = 'There was an error sending your message. Please try again.';
export const CONTACT_DELETED_MESSAGE = 'Contact deleted';
export const CONTACT_DELETE_FAILED_MESSAGE = 'Error deleting contact';

/** Name of the hidden field that only bots fill in (the form hides it from people and screen readers). */
export const CONTACT_HONEYPOT_FIELD = 'website';
/** Messages one address may send per minute. */
export const CONTACT_PER_MINUTE_MAX = 5;

// The DTOs are zod schemas in contacts.ts; a type-only export keeps zod out of this module.
export type { ContactDto, ContactList } from './contacts';
