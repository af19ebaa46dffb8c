import {
  isAlwaysOn,
  isThresholdKind,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_KINDS,
  NOTIFICATION_NOT_FOUND_MESSAGE,
  PREFERENCES_SAVED_MESSAGE,
  type NotificationDto,
  type NotificationKind,
  type NotificationPage,
  type NotificationPreferencesChange,
  type NotificationPreferencesDto,
} from '../../shared/contracts/notifications';
import type { ActorContext, AppContext } from '../context';
import { inTransaction } from '../db/transaction';
import { uuidv7 } from '../ledger/uuid';
import { notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, newDeviceSignInMail, notificationMail } from '../mail/templates';
import { type NotifyInput, textOf } from './messages';
import * as repository from './repository';

export type { NotifyInput } from './messages';

/** What notify() needs: the database (the caller's transaction, if any), the clock, and the config for the mail. */
export type NotifyContext = Pick<AppContext, 'db' | 'clock' | 'config'>;

export interface Notified {
  id: string;
  inApp: boolean;
  emailed: boolean;
}

interface Choice {
  inApp: boolean;
  email: boolean;
  thresholdCents: number | null;
}

function choiceOf(kind: NotificationKind, row: repository.PreferenceRow | undefined): Choice {
  const defaults = NOTIFICATION_DEFAULTS[kind];
  // An always-on kind ignores any row (none is written for it, but a hand-made one changes nothing).
  if (isAlwaysOn(kind) || !row) return { inApp: defaults.inApp, email: defaults.email, thresholdCents: defaults.amountCents };
  return { inApp: row.in_app, email: row.email, thresholdCents: isThresholdKind(kind) ? (row.threshold_cents ?? defaults.amountCents) : null };
}

/** Whether the event is one the customer asked to hear about at all (the threshold kinds compare with their amount). */
function crossesThreshold(input: NotifyInput, thresholdCents: number | null): boolean {
  if (input.kind === 'money_sent_above') return thresholdCents !== null && input.amountCents > thresholdCents;
  if (input.kind === 'balance_below') return thresholdCents !== null && input.balanceBeforeCents >= thresholdCents && input.balanceAfterCents < thresholdCents;
  return true;
}

/**
 * THE way to tell a customer something (issue 14). Call it inside the transaction of the change
 * that causes it (`ctx.db` may be that transaction): the in-app item and, when the customer's
 * preferences say so, the email (through the outbox) commit with the change or not at all.
 * This is the one place that decides in-app versus email, and, for "money sent above" and "balance
 * below", whether the amount is one the customer asked to hear about.
 *
 * `key` makes the event unique among the customer's notifications of that kind (an entry id, a
 * request id, a month): a second call with the same key (a job run twice) changes nothing.
 * Answers what it wrote, or null when nothing was written (preferences off, below the threshold,
 * already notified, or the user is closed; staff get only the always-on kinds, by email).
 */
export async function notify(ctx: NotifyContext, input: NotifyInput): Promise<Notified | null> {
  return notifyWith(ctx, input, null);
}

/** Who is notified and what they chose, looked up once for a whole batch (the ledger notifier's). */
export interface RecipientLookup {
  recipient(userId: string): repository.Recipient | undefined;
  preference(userId: string, kind: NotificationKind): repository.PreferenceRow | undefined;
}

/** The recipients and preferences of many customers in two queries (on the caller's transaction). */
export async function lookupRecipients(db: NotifyContext['db'], userIds: string[]): Promise<RecipientLookup> {
  const [recipients, preferences] = await Promise.all([repository.findRecipients(db, userIds), repository.preferencesOf(db, userIds)]);
  const byId = new Map(recipients.map((row) => [row.id, row]));
  const byKey = new Map(preferences.map((row) => [`${row.user_id}:${row.kind}`, row]));
  return { recipient: (userId) => byId.get(userId), preference: (userId, kind) => byKey.get(`${userId}:${kind}`) };
}

interface Planned {
  row: repository.NewNotification;
  recipient: repository.Recipient;
  input: NotifyInput;
  text: ReturnType<typeof textOf>;
}

/** What notify() would write for this event (null: nothing), once its recipient and choice are known. */
function plan(
  ctx: NotifyContext,
  input: NotifyInput,
  recipient: repository.Recipient | undefined,
  preference: repository.PreferenceRow | undefined,
): Planned | null {
  if (!recipient || recipient.closed_at) return null;
  // Staff have no notifications page: they get only what cannot be switched off, by email.
  if (recipient.is_admin && !isAlwaysOn(input.kind)) return null;
  const preferred = choiceOf(input.kind, preference);
  const choice = recipient.is_admin ? { ...preferred, inApp: false } : preferred;
  if ((!choice.inApp && !choice.email) || !crossesThreshold(input, choice.thresholdCents)) return null;
  const now = ctx.clock.now();
  const text = textOf(input, choice.thresholdCents);
  const row = {
    id: uuidv7(now.getTime()),
    userId: input.userId,
    kind: input.kind,
    dedupeKey: input.key,
    ...text,
    inApp: choice.inApp,
    emailed: choice.email,
    createdAt: now,
  };
  return { row, recipient, input, text };
}

/** The mail of a new notification that is emailed. */
async function mailPlanned(ctx: NotifyContext, trx: NotifyContext['db'], planned: Planned): Promise<void> {
  const { input, recipient, text } = planned;
  const brand = brandOf(ctx.config);
  // The new-device alert keeps the mail it has always had (auth/sessions.ts sent it before notifications existed).
  const mail =
    input.kind === 'new_device_sign_in'
      ? newDeviceSignInMail(brand, recipient.email, recipient.first_name, { device: input.device, ip: input.ip, at: input.at })
      : notificationMail(brand, recipient.email, recipient.first_name, text);
  await queueMail({ ...ctx, db: trx }, mail);
}

/** notify() with the recipient and their choice looked up already (null: look them up now). */
export async function notifyWith(ctx: NotifyContext, input: NotifyInput, lookup: RecipientLookup | null): Promise<Notified | null> {
  return inTransaction(ctx.db, async (trx) => {
    const recipient = lookup ? lookup.recipient(input.userId) : await repository.findRecipient(trx, input.userId);
    if (!recipient || recipient.closed_at) return null;
    if (recipient.is_admin && !isAlwaysOn(input.kind)) return null;
    const preference = lookup ? lookup.preference(input.userId, input.kind) : await repository.findPreference(trx, input.userId, input.kind);
    const planned = plan(ctx, input, recipient, preference);
    if (!planned) return null;
    const isNew = await repository.insertNotification(trx, planned.row);
    if (!isNew) return null;
    if (planned.row.emailed) await mailPlanned(ctx, trx, planned);
    return { id: planned.row.id, inApp: planned.row.inApp, emailed: planned.row.emailed };
  });
}

/**
 * notify() for many events at once (the ledger notifier's batch: a bulk payment is 1,000): each
 * decided exactly as notify() decides it, the new notifications written by one statement (in the
 * events' order; an event whose customer already has its kind and key writes nothing), then the
 * mails of the new ones that are emailed. Answers how many were new.
 */
export async function notifyMany(ctx: NotifyContext, inputs: NotifyInput[], lookup: RecipientLookup): Promise<number> {
  return inTransaction(ctx.db, async (trx) => {
    const planned = inputs
      .map((input) => plan(ctx, input, lookup.recipient(input.userId), lookup.preference(input.userId, input.kind)))
      .filter((item): item is Planned => item !== null);
    const inserted = await repository.insertNotifications(
      trx,
      planned.map((item) => item.row),
    );
    for (const item of planned) if (item.row.emailed && inserted.has(item.row.id)) await mailPlanned(ctx, trx, item);
    return inserted.size;
  });
}

// ---------------------------------------------------------------- the customer's list

const toNotificationDto = (row: repository.NotificationRow): NotificationDto => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  title: row.title,
  body: row.body,
  link: row.link,
  createdAt: new Date(row.created_at).toISOString(),
  readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
});

export async function myNotifications(ctx: ActorContext, query: { unread?: boolean; page: number; pageSize: number }): Promise<NotificationPage> {
  const { items, total, unread } = await repository.pageOf(ctx.db, ctx.actor.user.id, {
    unreadOnly: query.unread === true,
    page: query.page,
    pageSize: query.pageSize,
  });
  return { items: items.map(toNotificationDto), total, unread, page: query.page, pageSize: query.pageSize };
}

export async function readNotification(ctx: ActorContext, id: string): Promise<NotificationDto> {
  const row = await repository.markRead(ctx.db, ctx.actor.user.id, id, ctx.clock.now());
  if (!row) throw notFound(NOTIFICATION_NOT_FOUND_MESSAGE);
  return toNotificationDto(row);
}

export async function readAllNotifications(ctx: ActorContext): Promise<Outcome<{ updated: number; unread: number }>> {
  const updated = await repository.markAllRead(ctx.db, ctx.actor.user.id, ctx.clock.now());
  return { data: { updated, unread: await repository.unreadCount(ctx.db, ctx.actor.user.id) }, message: 'All notifications marked as read' };
}

// ---------------------------------------------------------------- preferences

export async function preferencesOf(ctx: Pick<AppContext, 'db'>, userId: string): Promise<NotificationPreferencesDto> {
  const rows = await repository.listPreferences(ctx.db, userId);
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  return Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => {
      const choice = choiceOf(kind, byKind.get(kind));
      return [
        kind,
        { inApp: choice.inApp, email: choice.email, amount: choice.thresholdCents === null ? null : choice.thresholdCents / 100, locked: isAlwaysOn(kind) },
      ];
    }),
  ) as NotificationPreferencesDto;
}

export async function myPreferences(ctx: ActorContext): Promise<NotificationPreferencesDto> {
  return preferencesOf(ctx, ctx.actor.user.id);
}

/** Saves the kinds the customer sent (the contract refused anything else); always-on kinds have nothing to store. */
export async function updateMyPreferences(ctx: ActorContext, change: NotificationPreferencesChange): Promise<Outcome<NotificationPreferencesDto>> {
  const userId = ctx.actor.user.id;
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (trx) => {
    for (const kind of NOTIFICATION_KINDS) {
      const chosen = change[kind];
      if (!chosen || isAlwaysOn(kind)) continue;
      await repository.upsertPreference(trx, {
        userId,
        kind,
        inApp: chosen.inApp,
        email: chosen.email,
        thresholdCents: isThresholdKind(kind) ? (chosen.amount ?? NOTIFICATION_DEFAULTS[kind].amountCents) : null,
        now,
      });
    }
  });
  return { data: await preferencesOf(ctx, userId), message: PREFERENCES_SAVED_MESSAGE };
}
