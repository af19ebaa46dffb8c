import { NO_PAYMENT_HOLD_MESSAGE, PAYMENTS_RELEASED_MESSAGE, type PaymentHoldDto, type PaymentHoldRelease } from '../../shared/contracts/payment-holds';
import { PAYMENT_HOLD_MS } from '../../shared/limits';
import { audit } from '../audit/audit';
import { type ActorContext, type AppContext, withDb } from '../context';
import type { DB } from '../db/database';
import type { User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { bankDateTime } from '../lib/bank-time';
import { type AppError, badRequest, notFound, rateLimited } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, paymentsHeldMail } from '../mail/templates';
import * as repository from './repository';

// Per-customer caps on transfer codes and the hold on outgoing payments (ADR 016).
// - At most TRANSFER_CODES_PER_HOUR codes an hour: one more is a 429 with Retry-After (when the
//   oldest code of the hour leaves it).
// - TRANSFER_CODE_FAILURES_PER_DAY wrong codes in a day hold the customer's outgoing payments
//   (transfers and wires; moves between their own accounts go on) until staff release them,
//   audited, or PAYMENT_HOLD_MS pass. The customer is emailed; staff see it on the user page.
// The caps are counted only with RATE_LIMITS on; a hold in place is honoured either way.
// Times come from the context's clock, and the codes' rows carry that clock's time too.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const USER_NOT_FOUND = 'User not found';

const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

function heldError(until: Date, now: Date, zone: string): AppError {
  return rateLimited(
    `Your outgoing payments are on hold until ${bankDateTime(until, zone)} after too many failed payment approvals (wrong IMS codes or refused passkey answers). ` +
      'Moves between your own accounts still work; contact support to release them sooner.',
    secondsUntil(until, now),
  );
}

const heldUntilOf = (row: { payments_held_until: Date | null }, now: Date): Date | null =>
  row.payments_held_until && new Date(row.payments_held_until).getTime() > now.getTime() ? new Date(row.payments_held_until) : null;

/** Where wrong codes count from: the last day, or the last release if that is later. */
const countFrom = (row: { code_failures_since: Date | null }, now: Date): Date => {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  return row.code_failures_since && new Date(row.code_failures_since) > dayAgo ? new Date(row.code_failures_since) : dayAgo;
};

/**
 * Refuses an outgoing payment (its code request or its posting) while a hold runs: 429 with
 * Retry-After until it ends. Costs nothing: the hold is on the user row the session already read.
 */
export function assertPaymentsNotHeld(ctx: Pick<AppContext, 'clock' | 'config'>, user: Pick<User, 'payments_held_until'>): void {
  const now = ctx.clock.now();
  const until = heldUntilOf(user, now);
  if (until) throw heldError(until, now, ctx.config.timeZone);
}

/**
 * Refuses a code request past TRANSFER_CODES_PER_HOUR in the last hour, with Retry-After until the
 * oldest of them leaves the hour. Run it in the transaction that issues the code: it serializes the
 * customer's code requests, so two at once cannot both take the last one. Answers how many more the
 * customer may ask for in the hour after this one (the step tells them), or undefined when the
 * limit is off.
 */
export async function assertTransferCodeAllowed(trx: DB, ctx: Pick<AppContext, 'clock' | 'config'>, userId: string): Promise<number | undefined> {
  if (!ctx.config.rateLimits) return undefined;
  const cap = ctx.config.limits.transferCodesPerHour;
  const now = ctx.clock.now();
  await repository.lockCustomerCodeRequests(trx, userId);
  const { count, oldest } = await repository.transferCodesIssuedSince(trx, userId, new Date(now.getTime() - HOUR_MS));
  if (count < cap) return cap - count - 1;
  const retryAt = new Date((oldest ?? now).getTime() + HOUR_MS);
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  throw rateLimited(
    `You have asked for ${count} IMS codes in the last hour, the most we send. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before asking for another.`,
    secondsUntil(retryAt, now),
  );
}

/**
 * After a wrong transfer code (already counted on its code): the customer's wrong codes of the day
 * reaching TRANSFER_CODE_FAILURES_PER_DAY start a hold, mailed to them and written to the audit log.
 * Answers the error to give instead of "wrong code" when payments are (now) held, else null.
 */
export async function noteWrongTransferCode(ctx: AppContext, userId: string): Promise<AppError | null> {
  if (!ctx.config.rateLimits) return null;
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockHold(trx, userId);
    if (!row) return null;
    const running = heldUntilOf(row, now);
    if (running) return heldError(running, now, ctx.config.timeZone);
    const wrongCodes = await repository.wrongTransferCodesSince(trx, userId, countFrom(row, now));
    if (wrongCodes < ctx.config.limits.transferCodeFailuresPerDay) return null;
    const until = new Date(now.getTime() + PAYMENT_HOLD_MS);
    await repository.startHold(trx, userId, until);
    await queueMail(withDb(ctx, trx), paymentsHeldMail(brandOf(ctx.config), row.email, row.first_name, { failures: wrongCodes, until }));
    await audit(trx, null, {
      action: 'payments.hold',
      targetUserId: userId,
      targetType: 'user',
      targetId: userId,
      before: { held: false },
      after: { held: true, heldUntil: until.toISOString() },
      reason: `${wrongCodes} wrong transfer codes in a day`,
    });
    return heldError(until, now, ctx.config.timeZone);
  });
}

async function holdDto(
  db: DB,
  row: { payments_held_until: Date | null; code_failures_since: Date | null },
  userId: string,
  ctx: Pick<AppContext, 'clock' | 'config'>,
) {
  const now = ctx.clock.now();
  const heldUntil = heldUntilOf(row, now);
  return {
    held: heldUntil !== null,
    heldUntil: heldUntil?.toISOString() ?? null,
    wrongCodes: await repository.wrongTransferCodesSince(db, userId, countFrom(row, now)),
    wrongCodesPerDay: ctx.config.limits.transferCodeFailuresPerDay,
  } satisfies PaymentHoldDto;
}

/** Staff: whether a customer's outgoing payments are held, and the wrong codes counted today. */
export async function paymentHoldOf(ctx: AppContext, userId: string): Promise<PaymentHoldDto> {
  const row = await repository.findHold(ctx.db, userId);
  if (!row || row.is_admin) throw notFound(USER_NOT_FOUND);
  return holdDto(ctx.db, row, userId, ctx);
}

/** Staff release a hold before it runs out, with a reason; audited. Wrong codes count again from now. */
export async function releasePaymentHold(ctx: ActorContext, userId: string, input: PaymentHoldRelease): Promise<Outcome<PaymentHoldDto>> {
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockHold(trx, userId);
    if (!row || row.is_admin) throw notFound(USER_NOT_FOUND);
    const heldUntil = heldUntilOf(row, now);
    if (!heldUntil) throw badRequest(NO_PAYMENT_HOLD_MESSAGE);
    await repository.releaseHold(trx, userId, now);
    await audit(trx, ctx.actor, {
      action: 'payments.release',
      targetUserId: userId,
      targetType: 'user',
      targetId: userId,
      before: { held: true, heldUntil: heldUntil.toISOString() },
      after: { held: false },
      reason: input.reason,
    });
    return { data: await holdDto(trx, { payments_held_until: null, code_failures_since: now }, userId, ctx), message: PAYMENTS_RELEASED_MESSAGE };
  });
}
