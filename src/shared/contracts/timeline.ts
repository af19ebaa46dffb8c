import { z } from 'zod';
import { envelope, pageSizeParam, requiredText, ZTimestamp } from './common';

// The customer page as one place (issue 15): everything that happened to a customer, newest first,
// and the notes staff add (append-only, audited). Approvals join the timeline with four eyes.

export const NOTE_LENGTH_MAX = 2000;
export const TIMELINE_PAGE_SIZE_DEFAULT = 20;
export const TIMELINE_PAGE_SIZE_MAX = 50;

export const TIMELINE_KINDS = [
  'entry',
  'sign_in',
  'kyc_submitted',
  'kyc_decided',
  'loan_applied',
  'loan_decided',
  'card_requested',
  'approval',
  'recovery',
  'note',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  entry: 'Ledger entry',
  sign_in: 'Sign-in',
  kyc_submitted: 'Identity documents',
  kyc_decided: 'Identity decision',
  loan_applied: 'Loan application',
  loan_decided: 'Loan decision',
  card_requested: 'Card request',
  approval: 'Four-eyes request',
  recovery: 'Account recovery',
  note: 'Staff note',
};

/** Where a page of the timeline continues: an opaque position (microseconds, kind and id). */
export const ZTimelineCursor = z
  .string({ message: 'before must be a timeline position' })
  .max(200, 'before must be a timeline position')
  .regex(/^[0-9]{1,17}\.[a-z_]{1,20}\.[A-Za-z0-9-]{1,40}$/, 'before must be a position the timeline answered (nextCursor)');

export const ZTimelineQuery = z.object({
  before: ZTimelineCursor.optional().describe('The next, older page: the nextCursor the previous page answered; absent: the newest events.'),
  pageSize: pageSizeParam({ max: TIMELINE_PAGE_SIZE_MAX, fallback: TIMELINE_PAGE_SIZE_DEFAULT, describe: 'Events per page.' }),
});
export type TimelineQuery = z.input<typeof ZTimelineQuery>;

export const ZTimelineEvent = z
  .object({
    kind: z.enum(TIMELINE_KINDS).describe('What happened.'),
    /** The id of what happened (an entry, a session, a submission, a loan, a card request, a note). */
    id: z.string().describe('The id of what happened (an entry, a session, a submission, a loan, a card request, a note).'),
    at: ZTimestamp,
    title: z.string(),
    detail: z.string().nullable(),
    /** Money moved on the customer's accounts (entries) or asked for (loans), in cents. */
    amountCents: z.number().int().nullable().describe("Money moved on the customer's accounts (entries) or asked for (loans), in integer cents."),
    /** Entries link to the journal's entry page. */
    entryId: z.string().nullable().describe('The journal entry, for entries.'),
    /** The staff member who decided or wrote it. */
    actor: z.string().nullable().describe('The staff member who decided or wrote it.'),
  })
  .meta({ id: 'TimelineEvent' });
export type TimelineEventDto = z.infer<typeof ZTimelineEvent>;

export const ZTimelinePage = z.object({
  items: z.array(ZTimelineEvent),
  /** `before=` for the next (older) page; null on the last one. */
  nextCursor: z.string().nullable().describe('before= for the next (older) page; null on the last one.'),
  pageSize: z.number().int().describe('Events per page.'),
});
export type TimelinePage = z.infer<typeof ZTimelinePage>;

export const ZNoteRequest = z.object({
  body: requiredText('Note', NOTE_LENGTH_MAX, 'Write the note first', { multiline: true }).describe(
    'The note, line breaks kept: it is kept for good (notes are append-only) and audited.',
  ),
});
export type NoteRequest = z.input<typeof ZNoteRequest>;

export const ZNote = z.object({ id: z.string(), userId: z.string(), body: z.string(), authorEmail: z.string().nullable(), createdAt: ZTimestamp });
export type NoteDto = z.infer<typeof ZNote>;

export const NOTE_ADDED_MESSAGE = 'Note added';

export const ZTimelineAnswer = envelope(ZTimelinePage);
export const ZNoteAnswer = envelope(ZNote);
