import type { z } from 'zod';
import {
  PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE,
  PAYMENT_REQUEST_ALREADY_DECLINED_MESSAGE,
  PAYMENT_REQUEST_CANCELLED_MESSAGE,
  PAYMENT_REQUEST_EXPIRED_MESSAGE,
  PAYMENT_REQUEST_EXPIRY_MS,
  PAYMENT_REQUEST_ALREADY_PAID_MESSAGE,
  PAYMENT_REQUEST_DECLINED_MESSAGE,
  PAYMENT_REQUEST_NOT_FOUND_MESSAGE,
  PAYMENT_REQUEST_PAID_MESSAGE,
  PAYMENT_REQUEST_SENT_MESSAGE,
  PAYMENT_REQUEST_TO_SELF_MESSAGE,
  type PaymentRequestDto,
  type PaymentRequestLists,
  type PaymentRequestPaid,
  type PaymentRequestStatus,
  type ZPaymentRequestCreate,
  type ZPaymentRequestPay,
} from '../../shared/contracts/payment-requests';
import { formatCents } from '../../shared/money';
import { routes } from '../../shared/routes';
import type { PaymentSubject } from '../payment-approval/binding';
import { type ApprovalStepOutcome, approvePayment } from '../payment-approval/service';
import { type ActorContext, type AppContext, withDb } from '../context';
import { inTransaction } from '../db/transaction';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { uuidv7 } from '../ledger/uuid';
import { AppError, assert, badRequest, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { notify } from '../notifications/service';
import { addJob } from '../queues/repository';
import { lineOf } from '../transactions/line';
import { BLOCKED_MESSAGE } from '../transactions/service';
import * as repository from './repository';

type CreateInput = z.output<typeof ZPaymentRequestCreate>;
type PayInput = z.output<typeof ZPaymentRequestPay>;

/** The job that tells the payer (queued for every request, so a stranger's costs the same; ADR 020). */
export const PAYMENT_REQUEST_NOTIFY_TASK = 'payment_request_notify';

const fullName = (first: string, last: string) => `${first} ${last}`.trim();
const toIso = (value: Date | string) => new Date(value).toISOString();

/** What a request is now: a pending one past its expiry time is expired (nothing stores that; the clock decides). */
export function statusOf(row: Pick<repository.PaymentRequestRow, 'status' | 'expires_at'>, now: Date): PaymentRequestStatus {
  return row.status === 'pending' && new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : row.status;
}

function sentDto(row: repository.PaymentRequestRow, now: Date): PaymentRequestDto {
  return {
    id: row.id,
    direction: 'sent',
    counterparty: row.to_text,
    amount: row.amount_cents / 100,
    note: row.note,
    status: statusOf(row, now),
    createdAt: toIso(row.created_at),
    answeredAt: row.answered_at ? toIso(row.answered_at) : null,
    expiresAt: toIso(row.expires_at),
    entryId: row.entry_id,
  };
}

function receivedDto(row: repository.PaymentRequestView, now: Date): PaymentRequestDto {
  return { ...sentDto(row, now), direction: 'received', counterparty: fullName(row.requester_first_name, row.requester_last_name) };
}

// ---------------------------------------------------------------- asking

/**
 * Stores the request and queues the job that notifies the payer, whoever `to` names: a customer,
 * nobody, or a closed account. The same statements run and the same answer goes back either way,
 * so neither the answer nor its timing says whether `to` is a customer (ADR 020). Only asking
 * yourself is refused, which names nobody else.
 */
export async function requestMoney(ctx: ActorContext, input: CreateInput): Promise<Outcome<PaymentRequestDto>> {
  const user = ctx.actor.user;
  const ownNumber = await repository.ownAccountNumber(ctx.db, user.id);
  if (input.to === user.email.toLowerCase() || input.to === ownNumber)
    throw badRequest(PAYMENT_REQUEST_TO_SELF_MESSAGE, { to: PAYMENT_REQUEST_TO_SELF_MESSAGE });
  const payerId = await repository.findCustomerByTo(ctx.db, input.to);
  const now = ctx.clock.now();
  const row = await inTransaction(ctx.db, async (trx) => {
    const inserted = await repository.insertRequest(trx, {
      id: uuidv7(now.getTime()),
      requesterId: user.id,
      payerId,
      to: input.to,
      amountCents: input.amount,
      note: input.note ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PAYMENT_REQUEST_EXPIRY_MS),
    });
    await addJob(trx, PAYMENT_REQUEST_NOTIFY_TASK, { requestId: inserted.id });
    return inserted;
  });
  return { data: sentDto(row, now), message: PAYMENT_REQUEST_SENT_MESSAGE, created: true };
}

/** The job: the payer hears of the request (in the app, and by email as they chose); a request to nobody tells nobody. */
export async function notifyPayer(ctx: AppContext, requestId: string): Promise<void> {
  const request = await repository.findView(ctx.db, requestId);
  if (!request?.payer_id || statusOf(request, ctx.clock.now()) !== 'pending') return;
  await notify(ctx, {
    kind: 'payment_request_received',
    userId: request.payer_id,
    key: request.id,
    fromName: fullName(request.requester_first_name, request.requester_last_name),
    amountCents: request.amount_cents,
    note: request.note,
    link: routes.accountRequests.path,
  });
}

// ---------------------------------------------------------------- the lists

export async function myRequests(ctx: ActorContext, page: { page: number; pageSize: number }): Promise<PaymentRequestLists> {
  const [received, sent] = await Promise.all([repository.received(ctx.db, ctx.actor.user.id, page), repository.sent(ctx.db, ctx.actor.user.id, page)]);
  const now = ctx.clock.now();
  return {
    received: { items: received.items.map((row) => receivedDto(row, now)), total: received.total, page: page.page, pageSize: page.pageSize },
    sent: { items: sent.items.map((row) => sentDto(row, now)), total: sent.total, page: page.page, pageSize: page.pageSize },
  };
}

// ---------------------------------------------------------------- paying and declining

/** A request can be paid, declined or cancelled only while pending (not expired): 409 naming what it is instead. */
function assertPending(row: Pick<repository.PaymentRequestRow, 'status' | 'expires_at'>, now: Date): void {
  const status = statusOf(row, now);
  if (status === 'paid') throw conflict(PAYMENT_REQUEST_ALREADY_PAID_MESSAGE);
  if (status === 'declined') throw conflict(PAYMENT_REQUEST_ALREADY_DECLINED_MESSAGE);
  if (status === 'cancelled') throw conflict(PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE);
  if (status === 'expired') throw conflict(PAYMENT_REQUEST_EXPIRED_MESSAGE);
}

/** The payer's approval is bound to this request, its amount, the account paying and the payee's account. */
const subjectOf = (requestId: string, fromAccountId: string, amountCents: number, payeeAccountId: string, note: string | null): PaymentSubject => ({
  kind: 'payment_request',
  fromAccountId,
  amountCents,
  payee: { account: payeeAccountId },
  description: note,
  terms: { request: requestId },
});

/**
 * Pays a request addressed to the signed-in customer, with their own approval: the first call
 * (no paymentPin) emails an IMS code bound to this request, its amount and payee; the second
 * consumes it and posts the payment through the ledger writer, in the transaction that marks the
 * request paid (the request row is locked first, so it is paid exactly once).
 */
export async function payRequest(
  ctx: ActorContext,
  id: string,
  input: PayInput,
  ticket: IdempotencyTicket,
): Promise<ApprovalStepOutcome | Outcome<PaymentRequestPaid>> {
  const user = ctx.actor.user;
  const request = await repository.findForPayer(ctx.db, id, user.id);
  if (!request) throw notFound(PAYMENT_REQUEST_NOT_FOUND_MESSAGE);
  assertPending(request, ctx.clock.now());
  if (user.is_blocked) throw new AppError('forbidden', BLOCKED_MESSAGE);
  const payee = await repository.requesterAccount(ctx.db, request.requester_id);
  if (!payee || payee.closed) throw badRequest('This account is closed and cannot receive transfers.');
  const accounts = await repository.payerAccounts(ctx.db, user.id);
  const source = accounts.find((account) => account.kind === input.from);
  assert(source, "the payer's account exists");
  if (source.balance < request.amount_cents) throw new AppError('insufficient_funds', 'Insufficient funds');
  const requesterName = fullName(request.requester_first_name, request.requester_last_name);
  const payeeLabel = `${requesterName} (account ending ${payee.number.slice(-4)})`;
  const summary = `${formatCents(request.amount_cents)} from your ${input.from} account to ${payeeLabel}, paying their request${request.note ? ` "${request.note}"` : ''}`;
  const step = await approvePayment(
    ctx,
    subjectOf(request.id, source.id, request.amount_cents, payee.id, request.note),
    { payeeLabel, summary, noun: 'payment' },
    input,
    ticket,
  );
  if (step) return step;

  const payerName = fullName(user.first_name, user.last_name);
  const description = request.note ? `Payment request: ${request.note}` : `Payment request from ${requesterName}`;
  return ctx.ledger.transaction(async (trx, post) => {
    const locked = await repository.lockForPayer(trx, request.id, user.id);
    if (!locked) throw notFound(PAYMENT_REQUEST_NOT_FOUND_MESSAGE);
    assertPending(locked, ctx.clock.now());
    const [posted] = await post([
      {
        kind: 'transfer',
        description,
        authorId: user.id,
        details: { paymentRequest: request.id, payee: { accountNumber: payee.number, to: requesterName, internal: true } },
        postings: [
          { accountId: source.id, amountCents: -request.amount_cents, memo: description, counterparty: requesterName },
          {
            accountId: payee.id,
            amountCents: request.amount_cents,
            memo: `Paid your request${request.note ? `: ${request.note}` : ''}`,
            counterparty: payerName,
          },
        ],
      },
    ]);
    assert(posted, 'the payment posted');
    const answered = await repository.markAnswered(trx, request.id, { status: 'paid', entryId: posted.id, answeredAt: posted.bookedAt });
    await notifyRequester(withDb(ctx, trx), answered, payerName, 'paid');
    const outcome: Outcome<PaymentRequestPaid> = {
      data: { request: receivedDto({ ...request, ...answered }, ctx.clock.now()), transaction: lineOf(posted, source.id, input.from) },
      message: PAYMENT_REQUEST_PAID_MESSAGE,
      created: true,
    };
    await storeOutcome(trx, ticket, outcome, posted.id);
    return outcome;
  });
}

async function notifyRequester(ctx: ActorContext, row: repository.PaymentRequestRow, payerName: string, answer: 'paid' | 'declined'): Promise<void> {
  await notify(ctx, {
    kind: 'payment_request_answered',
    userId: row.requester_id,
    key: row.id,
    payerName,
    amountCents: row.amount_cents,
    note: row.note,
    answer,
    link: routes.accountRequests.path,
  });
}

/** The payer says no; the requester hears of it. Only a pending request addressed to them can be declined. */
export async function declineRequest(ctx: ActorContext, id: string): Promise<Outcome<PaymentRequestDto>> {
  const user = ctx.actor.user;
  return inTransaction(ctx.db, async (trx) => {
    const locked = await repository.lockForPayer(trx, id, user.id);
    if (!locked) throw notFound(PAYMENT_REQUEST_NOT_FOUND_MESSAGE);
    assertPending(locked, ctx.clock.now());
    const answered = await repository.markAnswered(trx, id, { status: 'declined', entryId: null, answeredAt: ctx.clock.now() });
    await notifyRequester(withDb(ctx, trx), answered, fullName(user.first_name, user.last_name), 'declined');
    const view = await repository.findView(trx, id);
    assert(view, 'the declined request is there');
    return { data: receivedDto(view, ctx.clock.now()), message: PAYMENT_REQUEST_DECLINED_MESSAGE };
  });
}

/**
 * POST /payment-requests/{id}/cancel: the requester withdraws a pending request (not expired);
 * the payer, when it named a customer, is told in the same transaction. Anyone else's id (the
 * payer's included) is not found; a request no longer pending is a 409 that writes nothing.
 */
export async function cancelRequest(ctx: ActorContext, id: string): Promise<Outcome<PaymentRequestDto>> {
  const user = ctx.actor.user;
  return inTransaction(ctx.db, async (trx) => {
    const locked = await repository.lockForRequester(trx, id, user.id);
    if (!locked) throw notFound(PAYMENT_REQUEST_NOT_FOUND_MESSAGE);
    const now = ctx.clock.now();
    assertPending(locked, now);
    const cancelled = await repository.markAnswered(trx, id, { status: 'cancelled', entryId: null, answeredAt: now });
    if (cancelled.payer_id) {
      await notify(withDb(ctx, trx), {
        kind: 'payment_request_cancelled',
        userId: cancelled.payer_id,
        key: cancelled.id,
        fromName: fullName(user.first_name, user.last_name),
        amountCents: cancelled.amount_cents,
        note: cancelled.note,
        link: routes.accountRequests.path,
      });
    }
    return { data: sentDto(cancelled, now), message: PAYMENT_REQUEST_CANCELLED_MESSAGE };
  });
}
