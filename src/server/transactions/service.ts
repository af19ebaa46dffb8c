import type { z } from 'zod';
import {
  MONTHLY_TOTALS_MONTHS,
  type CustomerAccountKind,
  type MonthlyTotals,
  type TransactionDto,
  type ZAdminAccountUpdate,
  type ZAdminTransactionRequest,
  type ZInternalTransferRequest,
  type ZTransferRequest,
  type ZWireTransferRequest,
} from '../../shared/contracts/transactions';
import { formatCents } from '../../shared/money';
import { bicCountry, wireCountries } from '../../shared/wire';
import type { ApprovalPending } from '../../shared/contracts/approvals';
import { type ApprovalGate, needsApproval, requestApproval } from '../approvals/request';
import { audit, auditEach } from '../audit/audit';
import { type ApprovalStepOutcome, approvePayment } from '../payment-approval/service';
import { assertPaymentsNotHeld } from '../payment-limits/service';
import { bankMonth, previousMonth } from '../lib/bank-time';
import type { ActorContext } from '../context';
import type { DB } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { inTransaction } from '../db/transaction';
import type { SessionUser, User } from '../db/schema';
import { isValidAccountNumber } from '../ledger/accounts';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { bankAccountId, type EntryInput, InsufficientFundsError } from '../ledger/posting';
import { AppError, assert, badRequest, conflict, forbidden, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import * as repository from './repository';
import { checkPayeeName } from './payee-check';
import { lineOf, transferLine } from './line';

export const BLOCKED_MESSAGE = 'Your account is blocked from sending money. Please contact support.';
const TRANSACTION_NOT_FOUND = 'Transaction not found';

type InternalTransferInput = z.output<typeof ZInternalTransferRequest>;
type TransferInput = z.output<typeof ZTransferRequest>;
type WireInput = z.output<typeof ZWireTransferRequest>;
type StaffEntryInput = z.output<typeof ZAdminTransactionRequest>;
type AccountUpdateInput = z.output<typeof ZAdminAccountUpdate>;

/** A transfer call answers the code step first, then the posted line. */
export type TransferOutcome = ApprovalStepOutcome | Outcome<TransactionDto>;

async function ownAccounts(db: DB, userId: string): Promise<repository.OwnAccounts> {
  const own = await repository.findOwnAccounts(db, userId);
  if (!own) throw notFound('This customer has no accounts.');
  return own;
}

const fullName = (user: Pick<User, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

/** Customer account ids never change (accounts are never removed): the hot path keeps them. */
const accountIdCache = new Map<string, { savings: string; checking: string }>();
const ACCOUNT_ID_CACHE_MAX = 50_000;

async function ownAccountIds(db: DB, userId: string): Promise<{ savings: string; checking: string }> {
  const cached = accountIdCache.get(userId);
  if (cached) return cached;
  const own = await ownAccounts(db, userId);
  const ids = { savings: own.savings.id, checking: own.checking.id };
  if (accountIdCache.size >= ACCOUNT_ID_CACHE_MAX) accountIdCache.clear();
  accountIdCache.set(userId, ids);
  return ids;
}

// ---------------------------------------------------------------- customer: money in and out per month

/** The `count` months up to and including `lastMonth` (YYYY-MM), oldest first. */
export function monthsUpTo(lastMonth: string, count: number): string[] {
  const months = [lastMonth];
  while (months.length < count) months.unshift(previousMonth(months[0]!));
  return months;
}

/** The history chart's figures: money in and out in each of the last MONTHLY_TOTALS_MONTHS months (quiet months are zero). */
export async function myMonthlyTotals(ctx: ActorContext, account: CustomerAccountKind | undefined): Promise<MonthlyTotals> {
  // The current month is the bank's (BANK_TIMEZONE); value dates are bank dates already.
  const months = monthsUpTo(bankMonth(ctx.clock.now(), ctx.config.timeZone), MONTHLY_TOTALS_MONTHS);
  const rows = await repository.monthlyTotals(ctx.db, ctx.actor.user.id, `${months[0]}-01`, account);
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  return {
    months: months.map((month) => ({ month, moneyIn: (byMonth.get(month)?.inCents ?? 0) / 100, moneyOut: (byMonth.get(month)?.outCents ?? 0) / 100 })),
  };
}

// ---------------------------------------------------------------- customer: between own accounts

export async function internalTransfer(ctx: ActorContext, input: InternalTransferInput, ticket: IdempotencyTicket): Promise<Outcome<TransactionDto>> {
  const user = ctx.actor.user;
  const ids = await ownAccountIds(ctx.db, user.id);
  const from = ids[input.from];
  // The balance check happens where it counts: under the account locks, in the writer's batch.
  return ctx.ledger.submit({
    entry: {
      kind: 'internal',
      description: `Transfer from ${input.from} to ${input.to}`,
      authorId: user.id,
      postings: [
        { accountId: from, amountCents: -input.amount },
        { accountId: ids[input.to], amountCents: input.amount },
      ],
    },
    answer: transferLine(from, input.from),
    idempotency: ticket,
  });
}

// ---------------------------------------------------------------- customer: to another account (code step)

/** A customer may send money out: not blocked by staff, and no hold after wrong codes (payment-limits). */
function assertCanSend(ctx: ActorContext, user: SessionUser): void {
  if (user.is_blocked) throw forbidden(BLOCKED_MESSAGE);
  assertPaymentsNotHeld(ctx, user);
}

export { CODE_MESSAGES, consumeTransferCode, maskEmail, sendTransferCode } from '../payment-approval/code';

const lastDigits = (value: string) => value.replace(/\s+/g, '').slice(-4);
const memoOf = (description: string | null) => (description ? `, with the description "${description}"` : '');

export async function transfer(ctx: ActorContext, input: TransferInput, ticket: IdempotencyTicket): Promise<TransferOutcome> {
  const user = ctx.actor.user;
  assertCanSend(ctx, user);
  const own = await ownAccounts(ctx.db, user.id);
  if (input.from !== undefined && input.from !== own.number) throw forbidden('You can only send money from your own account.');
  if (input.accountNumber === own.number)
    throw badRequest('You cannot transfer to the same account', { accountNumber: 'You cannot transfer to the same account' });
  const source = own[input.accountType];
  if (source.balance < input.amount) throw new AppError('insufficient_funds', 'Insufficient funds');

  const payee = await repository.findPayeeByAccountNumber(ctx.db, input.accountNumber);
  if (payee?.closed_at) throw badRequest('This account is closed and cannot receive transfers.');
  if (!payee && (!input.routingNumber || !input.bankName)) {
    // The spec's 'Please fill all fields' covers amount, account type and recipient; another
    // bank's missing details are named.
    const missing = [input.routingNumber ? null : 'routing number', input.bankName ? null : 'bank name'].filter(Boolean).join(' and ');
    throw badRequest(`This account is at another bank: please enter its ${missing}.`, {
      ...(input.routingNumber ? {} : { routingNumber: 'Routing number is required for another bank' }),
      ...(input.bankName ? {} : { bankName: 'Bank name is required for another bank' }),
    });
  }
  const payeeFields = { accountNumber: input.accountNumber, routingNumber: input.routingNumber ?? null, bankName: input.bankName ?? null, to: input.to };
  // Dynamic linking: the approval authorizes this amount, from this account, to this payee, with this memo.
  const memo = input.description ?? null;
  const payeeLabel = `${input.to} (account ending ${lastDigits(input.accountNumber)}${input.bankName ? `, ${input.bankName}` : ''})`;
  // Confirmation of payee (ADR 029): told on the approval step; the customer decides.
  const payeeCheck = payee ? checkPayeeName(input.to, { firstName: payee.first_name, lastName: payee.last_name }) : ({ result: 'unavailable' } as const);
  const step = await approvePayment(
    ctx,
    { kind: 'transfer', fromAccountId: source.id, amountCents: input.amount, payee: payeeFields, description: memo },
    { payeeLabel, summary: `${formatCents(input.amount)} from your ${input.accountType} account to ${payeeLabel}${memoOf(memo)}`, payeeCheck },
    input,
    ticket,
  );
  if (step) return step;

  const senderName = fullName(user);
  const description = input.description ?? `Transfer to ${input.to}`;
  const creditAccountId = payee ? payee.id : await bankAccountId(ctx.db, 'external_clearing');
  return ctx.ledger.submit({
    idempotency: ticket,
    entry: {
      kind: 'transfer',
      description,
      authorId: user.id,
      details: payee
        ? { payee: { ...payeeFields, internal: true, nameCheck: payeeCheck.result } }
        : { beneficiary: { name: input.to, accountNumber: input.accountNumber, routingNumber: input.routingNumber ?? null, bankName: input.bankName ?? null } },
      postings: [
        { accountId: source.id, amountCents: -input.amount, memo: description, counterparty: input.to },
        payee
          ? {
              accountId: creditAccountId,
              amountCents: input.amount,
              memo: `Transfer from ${senderName}${input.description ? `: ${input.description}` : ''}`,
              counterparty: senderName,
            }
          : { accountId: creditAccountId, amountCents: input.amount, memo: `Outgoing to ${input.to}`, counterparty: senderName },
      ],
    },
    answer: transferLine(source.id, input.accountType),
  });
}

export async function wireTransfer(ctx: ActorContext, input: WireInput, ticket: IdempotencyTicket): Promise<TransferOutcome> {
  const user = ctx.actor.user;
  assertCanSend(ctx, user);
  const own = await ownAccounts(ctx.db, user.id);
  const beneficiaryAccount = input.beneficiaryAccount.replace(/[\s-]+/g, '').toUpperCase();
  if (beneficiaryAccount === own.number)
    throw badRequest('You cannot transfer to the same account', { beneficiaryAccount: 'You cannot transfer to the same account' });
  if (bicCountry(input.swiftCode) !== input.country) {
    throw badRequest('The SWIFT/BIC code belongs to a bank in another country than the one chosen', {
      swiftCode: 'SWIFT/BIC country differs from the chosen country',
    });
  }
  const source = own[input.account];
  if (source.balance < input.amount) throw new AppError('insufficient_funds', 'Insufficient funds');
  const countryName = wireCountries().find((country) => country.code === input.country)?.name ?? input.country;
  const beneficiary = {
    name: input.beneficiaryName,
    account: beneficiaryAccount,
    bankName: input.bankName,
    country: input.country,
    swiftCode: input.swiftCode,
    accountType: input.accountType,
  };
  const memo = input.description ?? null;
  const payeeLabel = `${input.beneficiaryName} (${input.bankName}, ${countryName}, account ending ${lastDigits(beneficiaryAccount)})`;
  const step = await approvePayment(
    ctx,
    { kind: 'wire', fromAccountId: source.id, amountCents: input.amount, payee: beneficiary, description: memo },
    {
      payeeLabel,
      summary: `wire of ${formatCents(input.amount)} from your ${input.account} account to ${payeeLabel}${memoOf(memo)}`,
      // Another bank's holder cannot be checked here (ADR 029): the step says so.
      payeeCheck: { result: 'unavailable' },
    },
    input,
    ticket,
  );
  if (step) return step;
  const description = input.description ?? `Wire to ${input.beneficiaryName}`;
  const clearing = await bankAccountId(ctx.db, 'external_clearing');
  return ctx.ledger.submit({
    idempotency: ticket,
    entry: {
      kind: 'wire',
      description,
      authorId: user.id,
      details: { beneficiary },
      postings: [
        { accountId: source.id, amountCents: -input.amount, memo: description, counterparty: input.beneficiaryName },
        { accountId: clearing, amountCents: input.amount, memo: `Outgoing wire to ${input.beneficiaryName}`, counterparty: fullName(user) },
      ],
    },
    answer: transferLine(source.id, input.account),
  });
}

// ---------------------------------------------------------------- staff

async function customerById(db: DB, userId: string): Promise<User> {
  const user = await repository.findUser(db, userId);
  if (!user || user.is_admin) throw notFound('Customer not found');
  return user;
}

/** A staff credit or debit: a reasoned entry against the bank's operations account, audited. */
export const STAFF_ENTRY_MESSAGE = 'Transaction added successfully';
export const BALANCE_CORRECTION_MESSAGE = 'Account balance successfully';
export const REVERSAL_MESSAGE = 'Transaction reversed';
// With four eyes on, what was asked (nothing is done until a second staff member approves it).
export const BALANCE_CORRECTION_REQUESTED_MESSAGE = 'Balance correction requested';
export const REVERSAL_REQUESTED_MESSAGE = 'Reversal requested';
export const staffEntryRequestedMessage = (type: StaffEntryInput['transactionType']) => `${type === 'debit' ? 'Debit' : 'Credit'} requested`;

/**
 * A staff credit or debit: a reasoned entry against the bank's operations account, audited. With
 * four eyes on (ADR 023) the call files a request and a second staff member's approval posts it
 * (`gate`), booked then; its author is the staff member who asked.
 */
export async function postStaffEntry(
  ctx: ActorContext,
  userId: string,
  input: StaffEntryInput,
  ticket: IdempotencyTicket,
  gate?: ApprovalGate,
): Promise<Outcome<TransactionDto | ApprovalPending>> {
  const customer = await customerById(ctx.db, userId);
  const own = await ownAccounts(ctx.db, customer.id);
  const account = own[input.account];
  if (needsApproval(ctx, gate)) {
    const summary = `${input.transactionType === 'credit' ? 'Credit' : 'Debit'} ${formatCents(input.amount)} ${input.transactionType === 'credit' ? 'to' : 'from'} the ${input.account} account`;
    const payload = { ...input, amount: input.amount / 100 };
    return requestApproval(ctx, { kind: 'staff_entry', customerId: customer.id, summary, payload }, ticket, staffEntryRequestedMessage(input.transactionType));
  }
  const operations = await bankAccountId(ctx.db, 'bank_operations');
  const signed = input.transactionType === 'credit' ? input.amount : -input.amount;
  const entry: EntryInput = {
    kind: 'adjustment',
    description: input.description,
    valueDate: input.date,
    authorId: ctx.actor.user.id,
    details: gate ? { reason: input.reason, approvalId: gate.id } : { reason: input.reason },
    postings: [
      { accountId: account.id, amountCents: signed, counterparty: 'Bank adjustment' },
      { accountId: operations, amountCents: -signed, counterparty: fullName(customer) },
    ],
  };
  return ctx.ledger.transaction(async (trx, post) => {
    await gate?.claim(trx);
    const [posted] = await post([entry]);
    assert(posted, 'one entry posted');
    const line = lineOf(posted, account.id, input.account);
    const balanceAfterCents = posted.postings.find((posting) => posting.accountId === account.id)?.balanceAfterCents ?? 0;
    await audit(trx, ctx.actor, {
      action: 'transaction.create',
      targetUserId: customer.id,
      targetType: 'journal_entry',
      targetId: posted.id,
      before: { account: input.account, balance: (balanceAfterCents - signed) / 100 },
      after: {
        account: input.account,
        balance: line.balanceAfter,
        amount: input.amount / 100,
        transactionType: input.transactionType,
        valueDate: input.date,
        description: input.description,
      },
      reason: input.reason,
    });
    const outcome: Outcome<TransactionDto> = { data: line, message: STAFF_ENTRY_MESSAGE, created: true };
    await storeOutcome(trx, ticket, outcome, posted.id);
    return outcome;
  });
}

export async function findEntryOrThrow(db: DB, id: string) {
  const entry = await repository.findEntry(db, id);
  if (!entry) throw notFound(TRANSACTION_NOT_FOUND);
  return entry;
}

export const LOAN_ENTRY_REVERSAL_MESSAGE =
  "A loan's payout or repayment cannot be reversed on its own: the loan would no longer match its money. Correct it with a staff credit or debit.";

/** "Deleting" an entry posts its reversal (DESIGN rule 2), reasoned and audited. */
export async function reverseEntry(
  ctx: ActorContext,
  id: string,
  reason: string,
  ticket: IdempotencyTicket,
  gate?: ApprovalGate,
): Promise<Outcome<{ reversedEntryId: string; reversalEntryId: string } | ApprovalPending>> {
  const entry = await findEntryOrThrow(ctx.db, id);
  if (entry.kind === 'reversal') throw badRequest('A reversal cannot be reversed. Add a new transaction instead.');
  // A loan's payout or repayment moves money the loan's own record counts (its principal, its
  // installments): reversed alone, the loan would still say it was paid out or paid.
  if (entry.kind === 'loan') throw badRequest(LOAN_ENTRY_REVERSAL_MESSAGE);
  if (await repository.isReversed(ctx.db, entry.id)) throw conflict('This transaction has already been reversed.');
  const lines = await repository.entryPostings(ctx.db, entry.id);
  const customers = [...new Set(lines.map((line) => line.owner_id).filter((owner): owner is string => owner !== null))];
  if (needsApproval(ctx, gate)) {
    const summary = `Reverse the ${entry.kind} entry of ${formatCents(entry.amount)} (${entry.description.slice(0, 120)})`;
    return requestApproval(
      ctx,
      { kind: 'reversal', customerId: customers[0] ?? null, summary, payload: { entryId: entry.id, reason } },
      ticket,
      REVERSAL_REQUESTED_MESSAGE,
    );
  }
  try {
    return await ctx.ledger.transaction(async (trx, post) => {
      await gate?.claim(trx);
      const [posted] = await post([
        {
          kind: 'reversal',
          description: `Reversal: ${entry.description}`,
          authorId: ctx.actor.user.id,
          reversalOf: entry.id,
          details: gate ? { reason, approvalId: gate.id } : { reason },
          postings: lines.map((line) => ({
            accountId: line.account_id,
            amountCents: -line.amount,
            memo: `Reversal: ${line.memo ?? entry.description}`,
            counterparty: 'Bank adjustment',
          })),
        },
      ]);
      assert(posted, 'the reversal posted');
      await auditEach(trx, ctx.actor, customers, {
        action: 'transaction.reverse',
        targetType: 'journal_entry',
        targetId: entry.id,
        before: { entry: entry.id, kind: entry.kind, amount: entry.amount / 100, status: 'completed' },
        after: { entry: entry.id, status: 'reversed', reversal: posted.id },
        reason,
      });
      const outcome = { data: { reversedEntryId: entry.id, reversalEntryId: posted.id }, message: REVERSAL_MESSAGE };
      await storeOutcome(trx, ticket, outcome, posted.id);
      return outcome;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'journal_entries_reversal_of_key')) throw conflict('This transaction has already been reversed.');
    // Staff are told whose money is missing (the customer spent what the entry gave them).
    const short = error instanceof InsufficientFundsError ? lines.find((line) => line.account_id === error.accountId) : undefined;
    if (short?.first_name != null) {
      const owner = `${short.first_name} ${short.last_name ?? ''}`.trim();
      throw new AppError(
        'insufficient_funds',
        `Insufficient funds: ${owner}'s ${short.kind} account ${short.number} holds less than this reversal takes back.`,
      );
    }
    throw error;
  }
}

/** Staff correct how an entry reads (a note; the entry itself never changes), audited. */
export async function describeEntry(ctx: ActorContext, id: string, description: string, reason: string | undefined): Promise<TransactionDto[]> {
  const entry = await findEntryOrThrow(ctx.db, id);
  await inTransaction(ctx.db, async (trx) => {
    const previous = await repository.latestEntryNote(trx, entry.id);
    await repository.addEntryNote(trx, { entryId: entry.id, description, authorId: ctx.actor.user.id });
    await auditEach(trx, ctx.actor, await repository.entryCustomers(trx, entry.id), {
      action: 'transaction.describe',
      targetType: 'journal_entry',
      targetId: entry.id,
      before: { description: previous?.description ?? entry.description },
      after: { description },
      reason: reason ?? null,
    });
  });
  return repository.entryLines(ctx.db, entry.id, null);
}

export const BALANCE_MOVED_MESSAGE =
  'The account moved since this correction was asked for: the balances it would set are no longer right. Ask for the correction again.';

export interface AccountCorrection {
  account: { number: string; savings: number; checking: number };
  entryId: string | null;
}

/**
 * The spec's "set balances": each difference becomes a correction entry against the operations
 * account, computed under lock from the balances as they are now. The customer's accounts and the
 * operations account are locked together, in id order, as every posting locks them.
 */
export async function correctAccount(
  ctx: ActorContext,
  userId: string,
  input: AccountUpdateInput,
  ticket: IdempotencyTicket,
  approval?: { gate: ApprovalGate; expected: { savings: number; checking: number } },
): Promise<Outcome<AccountCorrection | ApprovalPending>> {
  const customer = await customerById(ctx.db, userId);
  const own = await ownAccounts(ctx.db, customer.id);
  if (input.number !== own.number) {
    if (!isValidAccountNumber(input.number))
      throw badRequest('Account number must be 10 digits with a valid check digit', { number: 'Not a valid account number' });
    if (await repository.accountNumberTaken(ctx.db, input.number, customer.id)) throw conflict('This account number is already in use.');
  }
  // Only a change of balance is money: a new account number alone needs no second pair of eyes.
  const movesMoney = input.savings !== own.savings.balance || input.checking !== own.checking.balance;
  if (movesMoney && needsApproval(ctx, approval?.gate)) {
    const summary = `Set balances to savings ${formatCents(input.savings)}, checking ${formatCents(input.checking)} (now ${formatCents(own.savings.balance)} and ${formatCents(own.checking.balance)})`;
    const payload = {
      number: input.number,
      savings: input.savings / 100,
      checking: input.checking / 100,
      reason: input.reason,
      // The balances the request was made against: if either moves before approval, it is refused.
      before: { savings: own.savings.balance / 100, checking: own.checking.balance / 100 },
    };
    return requestApproval(ctx, { kind: 'balance_correction', customerId: customer.id, summary, payload }, ticket, BALANCE_CORRECTION_REQUESTED_MESSAGE);
  }
  const operations = await bankAccountId(ctx.db, 'bank_operations');
  try {
    return await ctx.ledger.transaction(async (trx, post) => {
      await approval?.gate.claim(trx);
      const locked = await repository.lockAccounts(trx, [own.savings.id, own.checking.id, operations]);
      const balanceOf = (kind: 'savings' | 'checking') => locked.find((row) => row.kind === kind)?.balance ?? 0;
      if (approval && (balanceOf('savings') !== approval.expected.savings || balanceOf('checking') !== approval.expected.checking)) {
        throw new AppError('conflict', BALANCE_MOVED_MESSAGE);
      }
      const before = { number: own.number, savings: balanceOf('savings') / 100, checking: balanceOf('checking') / 100 };
      const postings: Array<{ accountId: string; amountCents: number; counterparty: string }> = [];
      let total = 0;
      for (const row of locked) {
        if (row.kind !== 'savings' && row.kind !== 'checking') continue;
        const difference = input[row.kind] - row.balance;
        if (difference !== 0) {
          postings.push({ accountId: row.id, amountCents: difference, counterparty: 'Bank adjustment' });
          total += difference;
        }
      }
      let entryId: string | null = null;
      if (postings.length > 0) {
        if (total !== 0) postings.push({ accountId: operations, amountCents: -total, counterparty: fullName(customer) });
        const [posted] = await post([
          {
            kind: 'adjustment',
            description: 'Balance correction',
            authorId: ctx.actor.user.id,
            details: approval ? { reason: input.reason, approvalId: approval.gate.id } : { reason: input.reason },
            postings,
          },
        ]);
        entryId = posted?.id ?? null;
      }
      if (input.number !== own.number) await repository.renumberCustomerAccounts(trx, customer.id, input.number);
      const after = { number: input.number, savings: input.savings / 100, checking: input.checking / 100 };
      await audit(trx, ctx.actor, {
        action: 'account.update',
        targetUserId: customer.id,
        targetType: 'ledger_account',
        targetId: own.checking.id,
        before,
        // The correction entry's id links this record to the entry's page in the journal.
        after: { ...after, entryId },
        reason: input.reason,
      });
      const outcome = { data: { account: after, entryId }, message: BALANCE_CORRECTION_MESSAGE };
      await storeOutcome(trx, ticket, outcome, entryId);
      return outcome;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'ledger_accounts_number_kind_key')) throw conflict('This account number is already in use.');
    throw error;
  }
}
