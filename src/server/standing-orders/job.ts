import { addDays } from '../../shared/dates';
import { routes } from '../../shared/routes';
import { sha256 } from '../auth/crypto';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { inTransaction } from '../db/transaction';
import { storeOutcome } from '../ledger/idempotency';
import { bankAccountId, type EntryInput, InsufficientFundsError } from '../ledger/posting';
import { bankDate, startOfBankDay } from '../lib/bank-time';
import { assert } from '../lib/errors';
import { notify } from '../notifications/service';
import * as repository from './repository';
import { nextOccurrence } from './schedule';

/**
 * The job that pays standing orders (ADR 019). It runs every few minutes; each run pays what is due
 * by the bank's today (BANK_TIMEZONE, from the context's clock, so tests run a simulated month).
 */
export const STANDING_ORDERS_TASK = 'standing_orders_due';
/** After downtime, occurrences due at most this many days ago are still paid; older ones are skipped and notified. */
export const STANDING_ORDER_CATCH_UP_DAYS = 5;
/** An occurrence refused for 'Insufficient funds' is tried once more at this hour of its bank day... */
export const STANDING_ORDER_RETRY_HOUR = 16;
/** ...or this long after the refusal, when that hour has passed (a late catch-up run). */
export const STANDING_ORDER_RETRY_DELAY_MIN_MS = 60 * 60 * 1000;
/** Orders read per query of a run, and occurrences settled per run at most (the next run goes on). */
const DUE_BATCH = 100;
export const STANDING_ORDER_OCCURRENCES_PER_RUN_MAX = 10_000;

export const REASONS = {
  insufficientFunds: 'Insufficient funds.',
  missed: `The bank could not run it within ${STANDING_ORDER_CATCH_UP_DAYS} days of its date, so it was skipped. The next payment is made as usual.`,
  blocked: 'Your account is blocked from sending money. Please contact support.',
  closed: 'Your account is closed.',
  payeeClosed: "The payee's account is closed.",
} as const;

type Settled = 'paid' | 'skipped' | 'retrying' | 'busy' | 'idle';

/** The idempotency key of one occurrence: posted with the entry, so an occurrence can never post twice. */
export const occurrenceKey = (orderId: string, dueDate: string) => `standing-order:${orderId}:${dueDate}`;

/** When an occurrence refused at `now` is tried again: later that bank day, and at least an hour later. */
export function retryTime(now: Date, zone: string): Date {
  const retryHour = new Date(startOfBankDay(bankDate(now, zone), zone).getTime() + STANDING_ORDER_RETRY_HOUR * 60 * 60 * 1000);
  return new Date(Math.max(retryHour.getTime(), now.getTime() + STANDING_ORDER_RETRY_DELAY_MIN_MS));
}

export interface RunSummary {
  paid: number;
  skipped: number;
  retrying: number;
}

/** One run: settles every due occurrence (in date order per order), up to STANDING_ORDER_OCCURRENCES_PER_RUN_MAX. */
export async function runStandingOrders(ctx: AppContext): Promise<RunSummary> {
  const now = ctx.clock.now();
  const today = bankDate(now, ctx.config.timeZone);
  const summary: RunSummary = { paid: 0, skipped: 0, retrying: 0 };
  const leftAlone: string[] = [];
  let settled = 0;
  while (settled < STANDING_ORDER_OCCURRENCES_PER_RUN_MAX) {
    const ids = await repository.dueOrderIds(ctx.db, { today, now, exclude: leftAlone, limit: DUE_BATCH });
    if (ids.length === 0) break;
    for (const id of ids) {
      const result = await settleNext(ctx, id, now, today);
      if (result === 'busy' || result === 'idle') leftAlone.push(id);
      else {
        summary[result] += 1;
        settled += 1;
      }
    }
  }
  if (settled > 0) ctx.log.info({ ...summary }, 'standing orders run');
  return summary;
}

/** What the run decided for an occurrence before posting (or instead of it). */
type Plan = { due: string } & ({ kind: 'pay' } | { kind: 'skip'; reason: string });

/**
 * Settles the next occurrence of one order, in one transaction of the ledger writer: the order is
 * locked (another run skips it), the occurrence is paid (entry, idempotency record with its own
 * key, payment row, order moved on) or skipped and notified, all committed together. A refusal for
 * 'Insufficient funds' rolls that back and is recorded apart (retry later that day, then skip).
 */
async function settleNext(ctx: AppContext, orderId: string, now: Date, today: string): Promise<Settled> {
  let planned: Plan | null = null;
  try {
    return await ctx.ledger.transaction(async (trx, post) => {
      planned = null;
      const order = await repository.lockOrderForRun(trx, orderId);
      if (!order) return 'busy';
      if (!isDue(order, now, today)) return 'idle';
      const plan = await planOf(trx, order, today);
      planned = plan;
      if (plan.kind === 'skip') {
        await skip(ctx, trx, order, plan.due, plan.reason, now);
        return 'skipped';
      }
      const [posted] = await post([await entryOf(trx, order, today)]);
      assert(posted, 'the occurrence posted');
      await repository.insertPayment(trx, {
        standing_order_id: order.id,
        due_date: plan.due,
        outcome: 'paid',
        reason: null,
        entry_id: posted.id,
        attempts: order.attempts + 1,
        settled_at: now,
      });
      await storeOutcome(
        trx,
        { userId: order.user_id, key: occurrenceKey(order.id, plan.due), requestHash: sha256(occurrenceKey(order.id, plan.due)) },
        { data: { entryId: posted.id, standingOrderId: order.id, dueDate: plan.due }, created: true },
        posted.id,
      );
      await moveOn(trx, order, { outcome: 'paid', reason: null, due: plan.due, now, paid: true });
      return 'paid';
    });
  } catch (error) {
    const plan = planned as Plan | null;
    if (!(error instanceof InsufficientFundsError) || !plan) throw error;
    return refused(ctx, orderId, plan.due, now, today);
  }
}

function isDue(order: repository.StandingOrderRow, now: Date, today: string): order is repository.StandingOrderRow & { next_due_date: string } {
  if (order.status !== 'active' || order.next_due_date === null || order.next_due_date > today) return false;
  return order.retry_at === null || new Date(order.retry_at).getTime() <= now.getTime();
}

async function planOf(trx: DB, order: repository.StandingOrderRow & { next_due_date: string }, today: string): Promise<Plan> {
  const due = order.next_due_date;
  if (due < addDays(today, -STANDING_ORDER_CATCH_UP_DAYS)) return { due, kind: 'skip', reason: REASONS.missed };
  const payer = await repository.payerOf(trx, order.user_id);
  if (payer.closed_at) return { due, kind: 'skip', reason: REASONS.closed };
  if (payer.is_blocked) return { due, kind: 'skip', reason: REASONS.blocked };
  if (order.to_kind !== 'own' && order.to_account_id && (await repository.isAccountOwnerClosed(trx, order.to_account_id)))
    return { due, kind: 'skip', reason: REASONS.payeeClosed };
  return { due, kind: 'pay' };
}

/** The occurrence's entry: like a transfer, labelled as a standing order in both histories. */
async function entryOf(trx: DB, order: repository.StandingOrderRow, today: string): Promise<EntryInput> {
  const payer = await repository.payerOf(trx, order.user_id);
  const payerName = `${payer.first_name} ${payer.last_name}`.trim();
  const amount = Number(order.amount);
  const credit =
    order.to_kind === 'own'
      ? { accountId: order.to_account_id!, amountCents: amount, memo: order.description, counterparty: `Your ${order.from_kind} account` }
      : order.to_account_id
        ? { accountId: order.to_account_id, amountCents: amount, memo: `Standing order from ${payerName}: ${order.description}`, counterparty: payerName }
        : {
            accountId: await bankAccountId(trx, 'external_clearing'),
            amountCents: amount,
            memo: `Outgoing standing order to ${order.payee_name}`,
            counterparty: payerName,
          };
  return {
    kind: 'standing_order',
    description: order.description,
    valueDate: today,
    authorId: order.user_id,
    details: {
      standingOrder: { id: order.id, dueDate: order.next_due_date },
      ...(order.to_account_id
        ? // What the payer was told of the payee's name when the mandate was approved (ADR 029).
          order.name_check
          ? { payee: { nameCheck: order.name_check } }
          : {}
        : {
            beneficiary: {
              name: order.payee_name,
              accountNumber: order.to_account_number,
              routingNumber: order.to_routing_number,
              bankName: order.to_bank_name,
            },
          }),
    },
    postings: [{ accountId: order.from_account_id, amountCents: -amount, memo: order.description, counterparty: order.payee_name }, credit],
  };
}

/** Moves the order to its next occurrence (or finishes it) and records the last result. */
async function moveOn(
  trx: DB,
  order: repository.StandingOrderRow,
  result: { outcome: 'paid' | 'skipped'; reason: string | null; due: string; now: Date; paid: boolean },
): Promise<void> {
  const nextIndex = order.next_index + 1;
  const next = nextOccurrence({ frequency: order.frequency, startDate: order.start_date, endDate: order.end_date, count: order.count }, nextIndex);
  await repository.updateOrder(trx, order.id, {
    next_index: nextIndex,
    next_due_date: next,
    status: next === null ? 'finished' : 'active',
    retry_at: null,
    attempts: 0,
    paid_count: order.paid_count + (result.paid ? 1 : 0),
    last_outcome: result.outcome,
    last_reason: result.reason,
    last_due_date: result.due,
    last_at: result.now,
  });
}

/** An occurrence not paid: recorded, the customer notified (standing_order_failed, once per occurrence), the order moved on. */
async function skip(ctx: AppContext, trx: DB, order: repository.StandingOrderRow, due: string, reason: string, now: Date): Promise<void> {
  await repository.insertPayment(trx, {
    standing_order_id: order.id,
    due_date: due,
    outcome: 'skipped',
    reason,
    entry_id: null,
    attempts: order.attempts,
    settled_at: now,
  });
  await notify(
    { ...ctx, db: trx },
    {
      userId: order.user_id,
      kind: 'standing_order_failed',
      key: `${order.id}:${due}`,
      amountCents: Number(order.amount),
      payee: order.payee_name,
      reason,
      dueDate: due,
      link: routes.accountStandingOrders.path,
    },
  );
  await moveOn(trx, order, { outcome: 'skipped', reason, due, now, paid: false });
}

/** 'Insufficient funds': the first refusal waits for a retry later that day; the second skips the occurrence and notifies. */
async function refused(ctx: AppContext, orderId: string, due: string, now: Date, today: string): Promise<Settled> {
  return inTransaction(ctx.db, async (trx) => {
    const order = await repository.lockOrderForRun(trx, orderId);
    if (!order || !isDue(order, now, today) || order.next_due_date !== due) return 'busy';
    if (order.attempts === 0) {
      await repository.updateOrder(trx, order.id, {
        attempts: 1,
        retry_at: retryTime(now, ctx.config.timeZone),
        last_outcome: 'retrying',
        last_reason: `${REASONS.insufficientFunds} It will be tried again later today.`,
        last_due_date: due,
        last_at: now,
      });
      return 'retrying';
    }
    await skip(ctx, trx, { ...order, attempts: order.attempts + 1 }, due, REASONS.insufficientFunds, now);
    return 'skipped';
  });
}
