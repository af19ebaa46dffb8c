import { z } from 'zod';
import { EMAIL_LENGTH_MAX, OTP_LENGTH } from '../limits';
import { amountCents } from '../money';
import { envelope, optionalText, paginated, SINGLE_LINE_TEXT, ZPage, ZTimestamp } from './common';
import { ZApprovalFields } from './payment-approval';
import { CUSTOMER_ACCOUNTS, ZApprovalStep, ZTransaction } from './transactions';

// Asking another customer for money (issue 14, docs/decisions/020-payment-requests.md):
// POST /api/payment-requests, GET /api/payment-requests, POST /api/payment-requests/{id}/pay,
// POST /api/payment-requests/{id}/decline.

/** A customer may ask for money this many times an hour (counted per customer, in PostgreSQL). */
export const PAYMENT_REQUESTS_PER_HOUR_MAX = 20;
export const PAYMENT_REQUEST_RATE_WINDOW_MS = 60 * 60 * 1000;
/** The note a requester adds ("Pizza on Friday"): one line. */
export const PAYMENT_REQUEST_NOTE_LENGTH_MAX = 140;
/** Each list (sent, received) answers at most this many a page. */
export const PAYMENT_REQUEST_PAGE_SIZE_MAX = 50;

/**
 * A request nobody answered expires this many days after it was made: it can no longer be paid or
 * declined, and both lists show it as expired (ADR 020). A month is long enough to pay back a
 * dinner, short enough that a forgotten request does not wait for ever.
 */
export const PAYMENT_REQUEST_EXPIRY_DAYS = 30;
export const PAYMENT_REQUEST_EXPIRY_MS = PAYMENT_REQUEST_EXPIRY_DAYS * 24 * 60 * 60 * 1000;

/** `expired` is a pending request past its `expiresAt` (computed when read); `cancelled`, withdrawn by its requester. */
export const PAYMENT_REQUEST_STATUSES = ['pending', 'paid', 'declined', 'cancelled', 'expired'] as const;
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

export const PAYMENT_REQUEST_SENT_MESSAGE = 'Payment request sent';
export const PAYMENT_REQUEST_NOT_FOUND_MESSAGE = 'Payment request not found';
export const PAYMENT_REQUEST_TO_SELF_MESSAGE = 'You cannot request money from yourself';
export const PAYMENT_REQUEST_ALREADY_PAID_MESSAGE = 'This payment request has already been paid';
export const PAYMENT_REQUEST_ALREADY_DECLINED_MESSAGE = 'This payment request has been declined';
export const PAYMENT_REQUEST_PAID_MESSAGE = 'Payment sent';
export const PAYMENT_REQUEST_DECLINED_MESSAGE = 'Payment request declined';
export const PAYMENT_REQUEST_CANCELLED_MESSAGE = 'Payment request cancelled';
export const PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE = 'This payment request has been cancelled';
export const PAYMENT_REQUEST_EXPIRED_MESSAGE = 'This payment request has expired';
const TO_MESSAGE = 'Enter the email address or the 10-digit account number of the person you ask';
const TO_REQUIRED = 'Please enter who you are asking';

/**
 * Who is asked: an email address (lowercased) or a 10-digit account number at this bank. Whether
 * it belongs to a customer is never answered (the same answer either way).
 */
export const ZPaymentRequestTo = z
  .string({ message: TO_REQUIRED })
  .trim()
  .min(1, TO_REQUIRED)
  .max(EMAIL_LENGTH_MAX, TO_MESSAGE)
  .regex(SINGLE_LINE_TEXT, TO_MESSAGE)
  .meta({ description: 'An email address, or a 10-digit account number at this bank', examples: ['jamie.lee@example.com', '4000000004'] })
  .transform((value, ctx) => {
    const compact = value.replace(/[\s-]+/g, '');
    if (/^[0-9]+$/.test(compact)) {
      if (compact.length !== 10) {
        ctx.addIssue({ code: 'custom', message: 'Account numbers here are 10 digits' });
        return z.NEVER;
      }
      return compact;
    }
    if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', message: TO_MESSAGE });
      return z.NEVER;
    }
    return value.toLowerCase();
  });

export const ZPaymentRequestCreate = z.object({
  to: ZPaymentRequestTo,
  amount: amountCents('Please enter an amount', 'The amount asked for, in decimal dollars with at most 2 places, e.g. 120.25'),
  note: optionalText('Note', PAYMENT_REQUEST_NOTE_LENGTH_MAX).describe('A one-line note for the payer, e.g. Pizza on Friday.'),
});
export type PaymentRequestCreate = z.input<typeof ZPaymentRequestCreate>;

/**
 * One request, as its requester (direction 'sent') or its payer ('received') sees it. A sent
 * request names whom it was sent to exactly as the requester typed it, never a customer's name
 * that the requester did not already know; `counterparty` of a received one is the requester.
 */
export const ZPaymentRequest = z
  .object({
    id: z.string(),
    direction: z.enum(['sent', 'received']).describe('sent: the customer asked; received: the customer is asked.'),
    /** Sent: the email or account number asked. Received: the requester's name. */
    counterparty: z.string().describe("Sent: the email or account number asked, as typed. Received: the requester's name."),
    /** Dollars. */
    amount: z.number().describe('Dollars.'),
    note: z.string().nullable(),
    status: z
      .enum(PAYMENT_REQUEST_STATUSES)
      .describe('pending; paid; declined by the payer; cancelled by the requester; expired (still pending past expiresAt).'),
    createdAt: ZTimestamp,
    /** When it was paid, declined or cancelled. */
    answeredAt: ZTimestamp.nullable().describe('When it was paid, declined or cancelled; null before.'),
    /** A request still pending at this time expires (PAYMENT_REQUEST_EXPIRY_DAYS after it was made). */
    expiresAt: ZTimestamp.describe('A request still pending then expires (30 days after it was made).'),
    /** The journal entry that paid it (null until paid). */
    entryId: z.string().nullable().describe('The journal entry that paid it (null until paid).'),
  })
  .meta({ id: 'PaymentRequest' });
export type PaymentRequestDto = z.infer<typeof ZPaymentRequest>;

export const ZPaymentRequestAnswer = envelope(ZPaymentRequest);

export const ZPaymentRequestListQuery = ZPage.extend({
  pageSize: ZPage.shape.pageSize.pipe(z.number().max(PAYMENT_REQUEST_PAGE_SIZE_MAX, `pageSize must be at most ${PAYMENT_REQUEST_PAGE_SIZE_MAX}`)),
});
export type PaymentRequestListQuery = z.input<typeof ZPaymentRequestListQuery>;

const ZPaymentRequestPage = paginated(ZPaymentRequest);
/** Both lists, newest first, each paged with the same page and pageSize. */
export const ZPaymentRequestLists = z.object({ received: ZPaymentRequestPage, sent: ZPaymentRequestPage });
export type PaymentRequestLists = z.infer<typeof ZPaymentRequestLists>;
export const ZPaymentRequestListsAnswer = envelope(ZPaymentRequestLists);

/** The payer's approval, in the transfer's two calls: the first answers the approval step (a passkey's or an emailed code's); the second, with `passkeyAssertion` or `paymentPin`, pays. */
export const ZPaymentRequestPay = z.object({
  from: z.enum(CUSTOMER_ACCOUNTS, { message: 'from must be savings or checking' }).default('checking').describe("The payer's account the money leaves."),
  paymentPin: z
    .string({ message: 'Please enter IMS code' })
    .trim()
    .meta({ pattern: `^[0-9]{${OTP_LENGTH}}$`, description: 'The IMS code emailed by the first call; absent on the first call.' })
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      if (value === '') ctx.addIssue({ code: 'custom', message: 'Please enter IMS code' });
      else if (!new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(value)) ctx.addIssue({ code: 'custom', message: `The IMS code is ${OTP_LENGTH} digits` });
    }),
  ...ZApprovalFields,
});
export type PaymentRequestPay = z.input<typeof ZPaymentRequestPay>;

/** The second call's answer: the request, now paid, and the payer's line in their history. */
export const ZPaymentRequestPaid = z.object({ request: ZPaymentRequest, transaction: ZTransaction });
export type PaymentRequestPaid = z.infer<typeof ZPaymentRequestPaid>;
export const ZPaymentRequestCodeAnswer = envelope(ZApprovalStep);
export const ZPaymentRequestPaidAnswer = envelope(ZPaymentRequestPaid);
