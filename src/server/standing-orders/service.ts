import {
  STANDING_ORDER_CANCELLED_MESSAGE,
  STANDING_ORDER_CREATED_MESSAGE,
  STANDING_ORDER_NOT_FOUND_MESSAGE,
  STANDING_ORDER_START_DAYS_MAX,
  STANDING_ORDERS_ACTIVE_MAX,
  STANDING_ORDERS_LISTED_MAX,
  type StandingOrderDto,
  type StandingOrderInput,
} from '../../shared/contracts/standing-orders';
import { addDays } from '../../shared/dates';
import { formatCents } from '../../shared/money';
import type { PaymentSubject } from '../payment-approval/binding';
import { type ApprovalStepOutcome, approvePayment } from '../payment-approval/service';
import type { ActorContext } from '../context';
import { inTransaction } from '../db/transaction';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { uuidv7 } from '../ledger/uuid';
import { bankDate } from '../lib/bank-time';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { BLOCKED_MESSAGE } from '../transactions/service';
import * as repository from './repository';
import { checkPayeeName } from '../transactions/payee-check';
import type { PayeeCheck } from '../../shared/contracts/payment-approval';
import { describeSchedule, nextOccurrence, type Schedule } from './schedule';

const lastDigits = (value: string) => value.slice(-4);
const accountLabel = (kind: 'savings' | 'checking') => `your ${kind} account`;

/** What the list shows of one order. */
export function toStandingOrderDto(row: repository.StandingOrderRow): StandingOrderDto {
  return {
    id: row.id,
    from: row.from_kind,
    to: {
      kind: row.to_kind,
      payeeId: row.payee_id,
      accountNumber: row.to_account_number,
      routingNumber: row.to_routing_number,
      bankName: row.to_bank_name,
    },
    payee: row.payee_name,
    amount: Number(row.amount) / 100,
    description: row.description,
    frequency: row.frequency,
    startDate: row.start_date,
    endDate: row.end_date,
    count: row.count,
    status: row.status,
    nextRunDate: row.next_due_date,
    retryAt: row.retry_at ? new Date(row.retry_at).toISOString() : null,
    paidCount: row.paid_count,
    lastResult:
      row.last_outcome && row.last_due_date && row.last_at
        ? { dueDate: row.last_due_date, outcome: row.last_outcome, reason: row.last_reason, at: new Date(row.last_at).toISOString() }
        : null,
    createdAt: new Date(row.created_at).toISOString(),
    cancelledAt: row.cancelled_at ? new Date(row.cancelled_at).toISOString() : null,
  };
}

export async function myStandingOrders(ctx: ActorContext): Promise<StandingOrderDto[]> {
  const rows = await repository.listOrders(ctx.db, ctx.actor.user.id, STANDING_ORDERS_LISTED_MAX);
  return rows.map(toStandingOrderDto);
}

/** Who is paid, as the mandate binds it: a snapshot taken now, so a payee edited later changes nothing. */
interface Target {
  kind: 'own' | 'payee' | 'customer';
  payeeId: string | null;
  toAccountId: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  bankName: string | null;
  name: string;
  /** `customer` with a name: the name the customer typed, and how it compares with the holder's (ADR 029). */
  typedName?: string;
  payeeCheck?: PayeeCheck;
}

async function targetOf(ctx: ActorContext, input: StandingOrderInput, own: { number: string; savings: string; checking: string }): Promise<Target> {
  const to = input.to;
  if (to.kind === 'own') {
    const other = input.from === 'savings' ? 'checking' : 'savings';
    return {
      kind: 'own',
      payeeId: null,
      toAccountId: own[other],
      accountNumber: own.number,
      routingNumber: null,
      bankName: null,
      name: `Your ${other} account`,
    };
  }
  if (to.kind === 'payee') {
    const payee = to.payeeId ? await repository.findPayee(ctx.db, ctx.actor.user.id, to.payeeId) : undefined;
    if (!payee) throw notFound('Payee not found');
    const atThisBank = payee.routing_number === '';
    const label = `${payee.name} (account ending ${lastDigits(payee.account_number)}${payee.bank_name ? `, ${payee.bank_name}` : ''})`;
    const base = { kind: 'payee' as const, payeeId: payee.id, accountNumber: payee.account_number, name: label };
    if (!atThisBank) return { ...base, toAccountId: null, routingNumber: payee.routing_number, bankName: payee.bank_name || null };
    const account = await creditAccountAtThisBank(ctx, payee.account_number, own.number, 'to.payeeId');
    return {
      ...base,
      toAccountId: account.id,
      routingNumber: null,
      bankName: null,
      // The saved name against the holder's, as a transfer to this payee checks it (ADR 029).
      payeeCheck: checkPayeeName(payee.name, { firstName: account.first_name, lastName: account.last_name }),
    };
  }
  const accountNumber = to.accountNumber ?? '';
  const account = await creditAccountAtThisBank(ctx, accountNumber, own.number, 'to.accountNumber');
  return {
    kind: 'customer',
    payeeId: null,
    toAccountId: account.id,
    accountNumber,
    routingNumber: null,
    bankName: null,
    // The list shows the name the payer typed, never the holder's (a number alone: its last digits).
    name: to.name ? `${to.name} (account ending ${lastDigits(accountNumber)})` : `Account ending ${lastDigits(accountNumber)}`,
    ...(to.name ? { typedName: to.name, payeeCheck: checkPayeeName(to.name, { firstName: account.first_name, lastName: account.last_name }) } : {}),
  };
}

/** The checking account a number names at this bank (as a transfer credits it), refusing the payer's own and closed ones. */
async function creditAccountAtThisBank(ctx: ActorContext, accountNumber: string, ownNumber: string, field: string) {
  if (accountNumber === ownNumber) throw badRequest('You cannot transfer to the same account', { [field]: 'You cannot transfer to the same account' });
  const account = await repository.findCheckingByNumber(ctx.db, accountNumber);
  if (!account) throw badRequest('No account at this bank has that number.', { [field]: 'No account at this bank has that number' });
  if (account.closed_at) throw badRequest('This account is closed and cannot receive transfers.', { [field]: 'This account is closed' });
  return account;
}

/** The schedule's dates against the bank's calendar today (the contract checked their shape). */
function checkDates(ctx: ActorContext, input: StandingOrderInput): void {
  const today = bankDate(ctx.clock.now(), ctx.config.timeZone);
  if (input.startDate < today) throw badRequest('The first payment cannot be in the past.', { startDate: 'The first payment cannot be in the past' });
  const latest = addDays(today, STANDING_ORDER_START_DAYS_MAX);
  if (input.startDate > latest)
    throw badRequest(`The first payment must be within ${STANDING_ORDER_START_DAYS_MAX} days.`, {
      startDate: `The first payment must be on or before ${latest}`,
    });
}

const scheduleOf = (input: StandingOrderInput): Schedule => ({
  frequency: input.frequency,
  startDate: input.startDate,
  endDate: input.endDate ?? null,
  count: input.count ?? null,
});

/** What the approval authorizes, and nothing else: the account it leaves, the payee, amount, description and schedule. */
const subjectOf = (fromAccountId: string, target: Target, input: StandingOrderInput, schedule: Schedule): PaymentSubject => ({
  kind: 'standing_order',
  fromAccountId,
  amountCents: input.amount,
  payee: {
    kind: target.kind,
    account: target.toAccountId,
    number: target.accountNumber,
    routing: target.routingNumber,
    bank: target.bankName,
    // The name typed for an account number is what the list will show: the approval covers it too.
    ...(target.typedName ? { name: target.typedName } : {}),
  },
  description: input.description,
  terms: { schedule },
});

export type CreateOutcome = ApprovalStepOutcome | Outcome<StandingOrderDto>;

/**
 * POST /api/standing-orders. To another account: the first call emails an IMS code for exactly
 * this mandate (the transfer's code step); the call with `paymentPin` creates it. Between the
 * customer's own accounts it is created at once (DESIGN rule 3). Nothing is paid here: the job
 * pays each occurrence on its date.
 */
export async function createStandingOrder(ctx: ActorContext, input: StandingOrderInput, ticket: IdempotencyTicket): Promise<CreateOutcome> {
  const user = ctx.actor.user;
  if (user.is_blocked) throw forbidden(BLOCKED_MESSAGE);
  checkDates(ctx, input);
  const accounts = await repository.ownAccounts(ctx.db, user.id);
  if (!accounts) throw notFound('This customer has no accounts.');
  const target = await targetOf(ctx, input, accounts);
  const schedule = scheduleOf(input);
  const fromAccountId = accounts[input.from];
  const first = nextOccurrence(schedule, 0);
  if (first === null) throw badRequest('This schedule has no payment date.', { endDate: 'This schedule has no payment date' });

  if (target.kind !== 'own') {
    const summary = `a standing order of ${formatCents(input.amount)} from ${accountLabel(input.from)} to ${target.name}, "${input.description}", ${describeSchedule(schedule)}`;
    const step = await approvePayment(
      ctx,
      subjectOf(fromAccountId, target, input, schedule),
      { payeeLabel: target.name, summary, payeeCheck: target.payeeCheck },
      input,
      ticket,
    );
    if (step) return step;
  }

  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (trx) => {
    await repository.lockOwner(trx, user.id);
    if ((await repository.countActive(trx, user.id)) >= STANDING_ORDERS_ACTIVE_MAX)
      throw conflict(`You can have at most ${STANDING_ORDERS_ACTIVE_MAX} active standing orders. Cancel one first.`);
    const row = await repository.insertOrder(trx, {
      id: uuidv7(now.getTime()),
      user_id: user.id,
      from_kind: input.from,
      from_account_id: fromAccountId,
      to_kind: target.kind,
      payee_id: target.payeeId,
      to_account_id: target.toAccountId,
      to_account_number: target.accountNumber,
      to_routing_number: target.routingNumber,
      to_bank_name: target.bankName,
      payee_name: target.name,
      name_check: target.payeeCheck && target.payeeCheck.result !== 'unavailable' ? target.payeeCheck.result : null,
      amount: input.amount,
      description: input.description,
      frequency: input.frequency,
      start_date: input.startDate,
      end_date: input.endDate ?? null,
      count: input.count ?? null,
      status: 'active',
      next_due_date: first,
      created_at: now,
    });
    const outcome: Outcome<StandingOrderDto> = { data: toStandingOrderDto(row), message: STANDING_ORDER_CREATED_MESSAGE, created: true };
    await storeOutcome(trx, ticket, outcome);
    return outcome;
  });
}

/**
 * DELETE /api/standing-orders/{id}: no further payment is made (a run paying it right now holds
 * the row, so the cancel waits for it and the next run finds it cancelled). Cancelling twice
 * answers the cancelled order again; a finished order has nothing left to cancel (409).
 */
export async function cancelStandingOrder(ctx: ActorContext, id: string): Promise<Outcome<StandingOrderDto>> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockOwnOrder(trx, ctx.actor.user.id, id);
    if (!row) throw notFound(STANDING_ORDER_NOT_FOUND_MESSAGE);
    if (row.status === 'cancelled') return { data: toStandingOrderDto(row), message: STANDING_ORDER_CANCELLED_MESSAGE };
    if (row.status === 'finished') throw conflict('This standing order has already finished: there is nothing left to cancel.');
    const cancelled = await repository.updateOrder(trx, row.id, {
      status: 'cancelled',
      next_due_date: null,
      retry_at: null,
      cancelled_at: ctx.clock.now(),
    });
    return { data: toStandingOrderDto(cancelled), message: STANDING_ORDER_CANCELLED_MESSAGE };
  });
}
