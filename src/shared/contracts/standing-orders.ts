import { z } from 'zod';
import { amountCents } from '../money';
import { controlCharactersMessage, envelope, isoDate, optionalText, SINGLE_LINE_TEXT, ZTimestamp } from './common';
import { NAME_LENGTH_MAX } from '../limits';
import { ZApprovalFields } from './payment-approval';
import { CUSTOMER_ACCOUNTS, ZApprovalStep, ZPaymentPin } from './transactions';

// GET /api/standing-orders, POST /api/standing-orders, DELETE /api/standing-orders/{id} (issue 14;
// docs/decisions/019-standing-orders.md). A standing order is approved once, like a transfer: the
// first POST emails an IMS code bound to its payee, amount, description and schedule; the POST with
// `paymentPin` creates it. An order between the customer's own accounts needs no code (DESIGN rule 3).

export const STANDING_ORDER_FREQUENCIES = ['once', 'weekly', 'monthly'] as const;
/** How the pages say each frequency. */
export const STANDING_ORDER_FREQUENCY_LABELS: Record<(typeof STANDING_ORDER_FREQUENCIES)[number], string> = {
  once: 'Once',
  weekly: 'Every week',
  monthly: 'Every month',
};
export type StandingOrderFrequency = (typeof STANDING_ORDER_FREQUENCIES)[number];
export const STANDING_ORDER_TARGETS = ['own', 'payee', 'customer'] as const;
export type StandingOrderTarget = (typeof STANDING_ORDER_TARGETS)[number];
export const STANDING_ORDER_STATUSES = ['active', 'finished', 'cancelled'] as const;

/** A schedule pays at most this many times (ten years of weekly payments). */
export const STANDING_ORDER_COUNT_MAX = 520;
/** The first payment may be at most this many days ahead. */
export const STANDING_ORDER_START_DAYS_MAX = 366;
/** Active standing orders one customer may have at once. */
export const STANDING_ORDERS_ACTIVE_MAX = 50;
/** The list answers at most this many (active first, then the newest finished or cancelled). */
export const STANDING_ORDERS_LISTED_MAX = 200;
export const STANDING_ORDER_DESCRIPTION_LENGTH_MAX = 140;

export const STANDING_ORDER_NOT_FOUND_MESSAGE = 'Standing order not found';
export const STANDING_ORDER_CREATED_MESSAGE = 'Standing order set up';
export const STANDING_ORDER_CANCELLED_MESSAGE = 'Standing order cancelled';

const FILL_ALL = 'Please fill all fields';

export const ZStandingOrderTo = z
  .strictObject({
    kind: z
      .enum(STANDING_ORDER_TARGETS, { message: 'to.kind must be own, payee or customer' })
      .describe("own: the customer's other account (no approval); payee: a saved payee; customer: another customer's account here."),
    /** A saved payee's id (kind "payee"). */
    payeeId: z.uuid('Please choose a payee').optional().describe("Kind payee: the saved payee's _id."),
    /** Another customer's 10-digit account number at this bank (kind "customer"). */
    accountNumber: z
      .string({ message: 'Account number must be text' })
      .trim()
      .max(34, 'Account number must be 10 digits')
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Account number'))
      .optional()
      .describe("Kind customer: the other customer's 10-digit account number at this bank."),
    /**
     * `customer` only: the name of the customer paid. Checked against the account's holder on the
     * approval step (confirmation of payee, ADR 029) and shown in the list with the account's last digits.
     */
    name: optionalText('Recipient name', NAME_LENGTH_MAX).describe(
      "Kind customer, optional: the name of the customer paid, checked against the account's holder on the approval step (payeeCheck).",
    ),
  })
  .describe('Who is paid.')
  .superRefine((to, ctx) => {
    if (to.kind === 'payee' && !to.payeeId) ctx.addIssue({ code: 'custom', path: ['payeeId'], message: 'Please choose a payee' });
    if (to.kind === 'customer') {
      if (!to.accountNumber) ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: 'Please enter the account number' });
      else if (!/^[0-9]{10}$/.test(to.accountNumber)) ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: 'Account number must be 10 digits' });
    }
  });

export const ZStandingOrderRequest = z
  .object({
    from: z.enum(CUSTOMER_ACCOUNTS, { message: FILL_ALL }).describe("The customer's account each payment leaves."),
    to: ZStandingOrderTo,
    amount: amountCents(FILL_ALL, 'Each payment, in decimal dollars with at most 2 places, e.g. 120.25'),
    description: z
      .string({ message: FILL_ALL })
      .trim()
      .min(1, FILL_ALL)
      .max(STANDING_ORDER_DESCRIPTION_LENGTH_MAX, `Description must be at most ${STANDING_ORDER_DESCRIPTION_LENGTH_MAX} characters`)
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Description'))
      .describe("Each payment's description."),
    frequency: z
      .enum(STANDING_ORDER_FREQUENCIES, { message: 'frequency must be once, weekly or monthly' })
      .describe("once, weekly, or monthly (on startDate's day; the 29th-31st on the last day of shorter months)."),
    /** The first payment's date (the bank's calendar, BANK_TIMEZONE); today or later. */
    startDate: isoDate('Start date').describe("The first payment's date, YYYY-MM-DD in the bank's calendar (BANK_TIMEZONE): today or later."),
    /** No payment after this date (inclusive); absent: until cancelled or `count` is reached. */
    endDate: isoDate('End date')
      .optional()
      .describe('No payment after this date (YYYY-MM-DD, inclusive); absent: until cancelled or count is reached. Not with once.'),
    /** At most this many payments; absent: until cancelled or `endDate`. */
    count: z
      .number({ message: 'count must be a whole number' })
      .int('count must be a whole number')
      .min(1, 'count must be at least 1')
      .max(STANDING_ORDER_COUNT_MAX, `count must be at most ${STANDING_ORDER_COUNT_MAX}`)
      .optional()
      .describe('At most this many payments; absent: until cancelled or endDate. Not with once.'),
    paymentPin: ZPaymentPin,
    ...ZApprovalFields,
  })
  .superRefine((order, ctx) => {
    if (order.frequency === 'once' && order.endDate !== undefined)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'A one-off payment has no end date' });
    if (order.frequency === 'once' && order.count !== undefined) ctx.addIssue({ code: 'custom', path: ['count'], message: 'A one-off payment has no count' });
    if (order.endDate !== undefined && order.endDate < order.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'The end date must not be before the start date' });
  });
export type StandingOrderRequest = z.input<typeof ZStandingOrderRequest>;
export type StandingOrderInput = z.output<typeof ZStandingOrderRequest>;

export const ZStandingOrderResult = z.object({
  /** The occurrence's due date (YYYY-MM-DD). */
  dueDate: z.string().describe("The occurrence's due date (YYYY-MM-DD)."),
  /** paid; skipped (not paid, and not tried again); retrying ('Insufficient funds' once: tried again later that day). */
  outcome: z
    .enum(['paid', 'skipped', 'retrying'])
    .describe("paid; skipped (not paid, not tried again); retrying ('Insufficient funds': tried again later that day)."),
  reason: z.string().nullable().describe('Why it was skipped or is retried; null when paid.'),
  at: ZTimestamp,
});

export const ZStandingOrder = z
  .object({
    id: z.string(),
    from: z.enum(CUSTOMER_ACCOUNTS),
    to: z.object({
      kind: z.enum(STANDING_ORDER_TARGETS),
      payeeId: z.string().nullable(),
      accountNumber: z.string().nullable(),
      routingNumber: z.string().nullable(),
      bankName: z.string().nullable(),
    }),
    /** Who is paid, as the list shows it. */
    payee: z.string().describe('Who is paid, as the list shows it.'),
    amount: z.number().describe('Each payment, in dollars.'),
    description: z.string(),
    frequency: z.enum(STANDING_ORDER_FREQUENCIES),
    startDate: z.string().describe('YYYY-MM-DD.'),
    endDate: z.string().nullable().describe('YYYY-MM-DD; null: none.'),
    count: z.number().int().nullable().describe('At most this many payments; null: no limit.'),
    status: z.enum(STANDING_ORDER_STATUSES).describe('active; finished (no payment left); cancelled.'),
    /** The next payment's date; null once finished or cancelled. */
    nextRunDate: z.string().nullable().describe("The next payment's date (YYYY-MM-DD); null once finished or cancelled."),
    /** When a refused payment is tried again (its date is nextRunDate); null otherwise. */
    retryAt: ZTimestamp.nullable().describe('When a refused payment is tried again (its date is nextRunDate); null otherwise.'),
    paidCount: z.number().int().describe('Payments made so far.'),
    lastResult: ZStandingOrderResult.nullable().describe('What happened to the latest due payment; null before the first.'),
    createdAt: ZTimestamp,
    cancelledAt: ZTimestamp.nullable(),
  })
  .meta({ id: 'StandingOrder' });
export type StandingOrderDto = z.infer<typeof ZStandingOrder>;

export const ZStandingOrderAnswer = envelope(ZStandingOrder);
export const ZStandingOrderListAnswer = envelope(z.array(ZStandingOrder));
/** The first call answers 200 with the code step (as a transfer's does). */
export const ZStandingOrderCodeAnswer = envelope(ZApprovalStep);
