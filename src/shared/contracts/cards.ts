import { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../limits';

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

export const ZCardRequest = z.object({
  cardType: z.enum(CARD_TYPES, { message: 'Card type must be debit or credit' }).default('debit'),
});

export const ZCardStatusChange = z
  .object({
    status: z.enum(CARD_REQUEST_STATUSES, { message: 'Status must be pending, approved, rejected or shipped' }),
    note: z.string().trim().max(TEXT_LENGTH_MAX, `The note must be at most ${TEXT_LENGTH_MAX} characters`).optional(),
  })
  .refine((value) => value.status !== 'rejected' || (value.note && value.note.length >= 3), {
    message: 'A reason is required to decline a card request',
    path: ['note'],
  });

export const ZCardQueueQuery = z.object({
  status: z.enum([...CARD_REQUEST_STATUSES, 'all']).default('pending'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export interface CardRequestDto {
  _id: string;
  cardType: (typeof CARD_TYPES)[number];
  status: CardRequestStatus;
  note: string | null;
  createdAt: string;
  updatedAt: string;
  customer?: { id: string; firstName: string; lastName: string; email: string };
}
