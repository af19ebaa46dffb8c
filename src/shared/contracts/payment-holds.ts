import { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../limits';
import { controlCharactersMessage, envelope, SINGLE_LINE_TEXT, ZTimestamp } from './common';

// GET /api/user/admin/{id}/payment-hold and POST /api/user/admin/{id}/payment-hold/release: a
// customer's outgoing payments held after too many wrong transfer codes in a day (ADR 016).

export const PAYMENTS_RELEASED_MESSAGE = 'Outgoing payments released';
export const NO_PAYMENT_HOLD_MESSAGE = "This customer's payments are not on hold.";

/** Whether a customer's outgoing payments are held, until when, and the wrong codes counted today. */
export const ZPaymentHold = z
  .object({
    held: z.boolean().describe("Whether the customer's outgoing payments are held."),
    /** When the hold ends by itself, if there is one. */
    heldUntil: ZTimestamp.nullable().describe('When the hold ends by itself, if there is one.'),
    /** Wrong transfer codes in the last 24 hours (since the last hold or release). */
    wrongCodes: z.number().int().describe('Wrong transfer codes in the last 24 hours (since the last hold or release).'),
    /** How many wrong codes a day put a hold on (TRANSFER_CODE_FAILURES_PER_DAY). */
    wrongCodesPerDay: z.number().int().describe('How many wrong codes a day put a hold on (TRANSFER_CODE_FAILURES_PER_DAY).'),
  })
  .meta({ id: 'PaymentHold' });
export type PaymentHoldDto = z.infer<typeof ZPaymentHold>;
export const ZPaymentHoldAnswer = envelope(ZPaymentHold);

export const ZPaymentHoldRelease = z.object({
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required (at least 3 characters)')
    .min(3, 'Reason must be at least 3 characters')
    .max(TEXT_LENGTH_MAX, `Reason must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Reason'))
    .describe('Why the hold is released early (at least 3 characters; audited).'),
});
export type PaymentHoldRelease = z.infer<typeof ZPaymentHoldRelease>;
