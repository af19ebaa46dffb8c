import { z } from 'zod';
import { amountCents } from '../money';
import { envelope, ZPage, ZTimestamp } from './common';

// GET /api/notifications, POST /api/notifications/{id}/read, POST /api/notifications/read-all,
// GET and PUT /api/notifications/preferences (issue 14). The kinds are the contract other domains
// notify with (src/server/notifications/service.ts: notify(ctx, { userId, kind, ... })).

/** Every kind of notification, as snake_case codes. Adding one: here, its labels, its defaults and its text (service). */
export const NOTIFICATION_KINDS = [
  'money_received',
  'money_sent_above',
  'balance_below',
  'new_device_sign_in',
  'standing_order_failed',
  'statement_ready',
  'payment_request_received',
  'payment_request_answered',
  'payment_request_cancelled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds whose preference carries an amount: "money sent above" and "balance below" it. */
export const THRESHOLD_KINDS = ['money_sent_above', 'balance_below'] as const satisfies readonly NotificationKind[];
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];
export const isThresholdKind = (kind: NotificationKind): kind is ThresholdKind => (THRESHOLD_KINDS as readonly string[]).includes(kind);

/**
 * Kinds no preference can switch off, in the app or by email: a sign-in from a new device is how a
 * customer learns that someone else has their password.
 */
export const ALWAYS_ON_KINDS = ['new_device_sign_in'] as const satisfies readonly NotificationKind[];
export const isAlwaysOn = (kind: NotificationKind): boolean => (ALWAYS_ON_KINDS as readonly string[]).includes(kind);

/** How each kind is named on the preferences page, with what it means. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  money_received: { label: 'Money received', hint: 'Another customer, the bank or a loan pays into your savings or checking account.' },
  money_sent_above: { label: 'Money sent above an amount', hint: 'A payment leaves your account for more than the amount you choose.' },
  balance_below: { label: 'Balance below an amount', hint: 'The balance of your savings or checking account drops below the amount you choose.' },
  new_device_sign_in: { label: 'Sign-in from a new device', hint: 'Always on: it tells you if someone else has your password.' },
  standing_order_failed: { label: 'Standing order failed', hint: 'A scheduled payment could not be made.' },
  statement_ready: { label: 'Statement ready', hint: 'A monthly statement is ready to download.' },
  payment_request_received: { label: 'Payment request received', hint: 'Another customer asks you for money.' },
  payment_request_answered: { label: 'Payment request answered', hint: 'Someone pays or declines a request for money you sent.' },
  payment_request_cancelled: { label: 'Payment request cancelled', hint: 'Someone cancels a request for money they sent you.' },
};

/** What a customer gets before they choose: in the app always; by email for what needs attention. */
export const NOTIFICATION_DEFAULTS: Record<NotificationKind, { inApp: boolean; email: boolean; amountCents: number | null }> = {
  money_received: { inApp: true, email: false, amountCents: null },
  money_sent_above: { inApp: true, email: true, amountCents: 50_000 },
  balance_below: { inApp: true, email: false, amountCents: 10_000 },
  new_device_sign_in: { inApp: true, email: true, amountCents: null },
  standing_order_failed: { inApp: true, email: true, amountCents: null },
  statement_ready: { inApp: true, email: false, amountCents: null },
  payment_request_received: { inApp: true, email: true, amountCents: null },
  payment_request_answered: { inApp: true, email: false, amountCents: null },
  payment_request_cancelled: { inApp: true, email: false, amountCents: null },
};

export const NOTIFICATION_NOT_FOUND_MESSAGE = 'Notification not found';
export const PREFERENCES_SAVED_MESSAGE = 'Notification preferences saved';
export const ALWAYS_ON_MESSAGE = 'The new-device sign-in alert cannot be switched off';
export const THRESHOLD_REQUIRED_MESSAGE = 'Please enter an amount';

// ---------------------------------------------------------------- the list

export const ZNotification = z
  .object({
    id: z.string(),
    kind: z.enum(NOTIFICATION_KINDS).describe('What it is about (the kinds of GET /api/notifications/preferences).'),
    title: z.string(),
    body: z.string(),
    /** A page of the app it is about (e.g. /account/transactions), or null. */
    link: z.string().nullable().describe('A page of the app it is about (e.g. /account/transactions), or null.'),
    createdAt: ZTimestamp,
    /** When the customer read it; null while unread. */
    readAt: ZTimestamp.nullable().describe('When the customer read it; null while unread.'),
  })
  .meta({ id: 'Notification' });
export type NotificationDto = z.infer<typeof ZNotification>;

export const ZNotificationListQuery = ZPage.extend({
  unread: z
    .enum(['true', 'false'], { message: 'unread must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true'))
    .describe('true: only the unread ones; false or absent: all.'),
});
export type NotificationListQuery = z.input<typeof ZNotificationListQuery>;

export const ZNotificationPage = z.object({
  items: z.array(ZNotification),
  /** How many match the filter (all, or the unread ones). */
  total: z.number().int().describe('How many match the filter (all, or the unread ones).'),
  /** How many are unread, whatever the filter: the bell's count. */
  unread: z.number().int().describe("How many are unread, whatever the filter: the bell's count."),
  page: z.number().int().describe('This page, counted from 1.'),
  pageSize: z.number().int().describe('Items per page.'),
});
export type NotificationPage = z.infer<typeof ZNotificationPage>;
export const ZNotificationPageAnswer = envelope(ZNotificationPage);
export const ZNotificationAnswer = envelope(ZNotification);
export const ZReadAllAnswer = envelope(
  z.object({ updated: z.number().int().describe('How many were marked read.'), unread: z.number().int().describe('How many are unread now.') }),
);

// ---------------------------------------------------------------- preferences

/** One kind's choice as the API answers it; `amount` (dollars) only for the threshold kinds. */
export const ZNotificationPreference = z.object({
  inApp: z.boolean().describe('Shown in the app.'),
  email: z.boolean().describe('Sent by email too.'),
  amount: z.number().nullable().describe('The threshold in dollars (money_sent_above, balance_below); null for the other kinds.'),
  /** True for the kinds no preference switches off (they are always on). */
  locked: z.boolean().describe('True for the kinds no preference switches off (they are always on).'),
});
export type NotificationPreferenceDto = z.infer<typeof ZNotificationPreference>;

export const ZNotificationPreferences = z
  .object(
    Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, ZNotificationPreference.describe(NOTIFICATION_KIND_LABELS[kind].hint)])) as Record<
      NotificationKind,
      typeof ZNotificationPreference
    >,
  )
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferencesDto = Record<NotificationKind, NotificationPreferenceDto>;
export const ZNotificationPreferencesAnswer = envelope(ZNotificationPreferences);

/** A threshold: decimal dollars (number or string) with at most 2 places, more than 0; cents inside. */
const threshold = amountCents(THRESHOLD_REQUIRED_MESSAGE, 'Decimal dollars with at most 2 places, more than 0, e.g. 500 or 99.50');

const onOff = (label: string) => z.boolean({ message: `${label} must be true or false` });
const ZChannels = z.strictObject({ inApp: onOff('inApp').describe('Show it in the app.'), email: onOff('email').describe('Send it by email too.') });
const ZThresholdChannels = ZChannels.extend({ amount: threshold });
const alwaysOn = (label: string) =>
  onOff(label)
    .refine((value) => value, ALWAYS_ON_MESSAGE)
    .describe('Always true: this alert cannot be switched off.');
const ZAlwaysOnChannels = z.strictObject({ inApp: alwaysOn('inApp'), email: alwaysOn('email') });

const updateOf = (kind: NotificationKind) =>
  (isAlwaysOn(kind) ? ZAlwaysOnChannels : isThresholdKind(kind) ? ZThresholdChannels : ZChannels)
    .optional()
    .describe(`${NOTIFICATION_KIND_LABELS[kind].hint} Absent: unchanged.`);

/**
 * PUT /api/notifications/preferences: the kinds to change, each with both channels (and the amount
 * for the threshold kinds); kinds left out stay as they were. An unknown kind, or switching off
 * an always-on kind, is refused (400) and nothing changes.
 */
export const ZNotificationPreferencesUpdate = z
  .strictObject(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, updateOf(kind)])) as Record<NotificationKind, ReturnType<typeof updateOf>>)
  .meta({ id: 'NotificationPreferencesUpdate' });
export type NotificationPreferencesUpdate = z.input<typeof ZNotificationPreferencesUpdate>;
export type NotificationPreferencesChange = Partial<Record<NotificationKind, { inApp: boolean; email: boolean; amount?: number }>>;
