import { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../limits';
import { envelope, paginated, ZPage, ZTimestamp, optionalText } from './common';

export const CARD_REQUEST_SENT_MESSAGE = 'Card request sent we will get back to you';
export const CARD_TYPES = ['debit', 'credit'] as const;
export const CARD_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'shipped'] as const;
export type CardRequestStatus = (typeof CARD_REQUEST_STATUSES)[number];

export const CARD_STATUS_LABELS: Record<CardRequestStatus, string> = {
  pending: 'Pending review',
  approved: 'Approved',
  rejected: 'Declined',
  shipped: 'Card on its way',
};

/** Staff moves a request forward only: pending -> approved | rejected, approved -> shipped. */
export const CARD_STATUS_NEXT: Record<CardRequestStatus, CardRequestStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['shipped'],
  rejected: [],
  shipped: [],
};

/** The body is optional: no body asks for a debit card. */
export const ZCardRequest = z.preprocess(
  (body) => body ?? {},
  z.object({
    cardType: z.enum(CARD_TYPES, { message: 'Card type must be debit or credit' }).default('debit').describe('The card asked for (no body: debit).'),
  }),
);

export const ZCardStatusChange = z
  .object({
    status: z
      .enum(CARD_REQUEST_STATUSES, { message: 'Status must be pending, approved, rejected or shipped' })
      .describe('The next status: pending to approved or rejected; approved to shipped.'),
    note: optionalText('The note', TEXT_LENGTH_MAX, { multiline: true }).describe(
      'A note emailed to the customer with the status; required (3 characters or more) to reject.',
    ),
  })
  .refine((value) => value.status !== 'rejected' || (value.note && value.note.length >= 3), {
    message: 'A reason is required to decline a card request',
    path: ['note'],
  });

export const ZCardQueueQuery = ZPage.extend({
  status: z
    .enum([...CARD_REQUEST_STATUSES, 'all'], { message: 'status must be pending, approved, rejected, shipped or all' })
    .default('pending')
    .describe('Only requests with this status; all: every one.'),
});

export const ZCardRequestDto = z.object({
  _id: z.string(),
  cardType: z.enum(CARD_TYPES),
  status: z.enum(CARD_REQUEST_STATUSES).describe('pending review, approved, rejected (declined) or shipped.'),
  note: z.string().nullable().describe("Staff's latest note; null without one."),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  /** Staff views name the customer. */
  customer: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }).optional(),
});
export type CardRequestDto = z.infer<typeof ZCardRequestDto>;

export const ZCardRequestAnswer = envelope(ZCardRequestDto);
export const ZCardRequestList = envelope(z.array(ZCardRequestDto));
export const ZCardQueue = envelope(paginated(ZCardRequestDto));
