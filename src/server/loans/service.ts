import type { ApprovalPending } from '../../shared/contracts/approvals';
import { type ApprovalGate, needsApproval, requestApproval } from '../approvals/request';
import type { z } from 'zod';
import type { Paginated } from '../../shared/contracts/common';
import {
  LOAN_PENDING_MAX,
  LOAN_PRODUCTS,
  LOAN_REPAID_MESSAGE,
  LOAN_SUCCESS_MESSAGE,
  type LoanDto,
  type LoanStatus,
  monthlyPaymentCents,
  repaymentScheduleCents,
  type LoanTerms,
  type ZLoanApplication,
} from '../../shared/contracts/loans';
import { formatCents } from '../../shared/money';
import { audit } from '../audit/audit';
import { type ActorContext, withDb } from '../context';
import type { PageRequest } from '../db/paginate';
import { inTransaction } from '../db/transaction';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { bankAccountId } from '../ledger/posting';
import { AppError, assert, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import * as repository from './repository';

type LoanApplication = z.output<typeof ZLoanApplication>;
const LOAN_NOT_FOUND = 'Loan not found';
const LOANS_LISTED_MAX = 100;

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The schedule of an approved loan, in cents (null before approval). */
function scheduleOf(row: repository.LoanRow) {
  return row.status === 'approved' && row.disbursed_at
    ? repaymentScheduleCents(row.amount_cents, row.annual_rate_bps, row.duration_months, new Date(row.disbursed_at).toISOString().slice(0, 10))
    : null;
}

export function toLoanDto(row: repository.LoanRow, customer?: repository.LoanCustomer): LoanDto {
  const lines = scheduleOf(row);
  const total = lines ? lines.reduce((sum, line) => sum + line.paymentCents, 0) : row.monthly_payment_cents * row.duration_months;
  const schedule = lines
    ? lines.map((line) => ({
        number: line.number,
        dueDate: line.dueDate,
        payment: line.paymentCents / 100,
        principal: line.principalCents / 100,
        interest: line.interestCents / 100,
        balance: line.balanceCents / 100,
      }))
    : null;
  return {
    _id: row.id,
    loanAmount: row.amount_cents / 100,
    loanType: row.loan_type,
    loanDuration: row.duration_months,
    loanPurpose: row.purpose,
    status: row.status,
    interestRate: row.annual_rate_bps / 100,
    monthlyPayment: row.monthly_payment_cents / 100,
    totalRepayment: total / 100,
    decisionReason: row.decision_reason,
    decidedAt: iso(row.decided_at),
    disbursedAt: iso(row.disbursed_at),
    createdAt: iso(row.created_at) ?? '',
    updatedAt: iso(row.updated_at) ?? '',
    schedule,
    installmentsPaid: row.installments_paid,
    principalRepaid: row.principal_repaid_cents / 100,
    interestPaid: row.interest_paid_cents / 100,
    outstanding: lines ? (row.amount_cents - row.principal_repaid_cents) / 100 : 0,
    nextInstallment: schedule?.[row.installments_paid] ?? null,
    repaidAt: iso(row.repaid_at),
    ...(customer
      ? {
          customer: {
            id: row.user_id,
            firstName: customer.first_name,
            lastName: customer.last_name,
            email: customer.email,
            verificationStatus: customer.verification_status,
          },
        }
      : {}),
  };
}

/** The application's terms, priced at the product's indicative rate. */
function terms(input: LoanApplication): repository.LoanTerms {
  const rate = LOAN_PRODUCTS[input.loanType].annualRateBps;
  return {
    loan_type: input.loanType,
    amount_cents: input.loanAmount,
    duration_months: input.loanDuration,
    purpose: input.loanPurpose,
    annual_rate_bps: rate,
    monthly_payment_cents: monthlyPaymentCents(input.loanAmount, rate, input.loanDuration),
  };
}

const describe = (row: repository.LoanRow) => `${LOAN_PRODUCTS[row.loan_type].label} of ${formatCents(row.amount_cents)} over ${row.duration_months} months`;
/** The same inside a sentence: "a personal loan of ...". */
const describedInline = (row: repository.LoanRow) => describe(row).charAt(0).toLowerCase() + describe(row).slice(1);

/** Queues a notice to the customer on ctx.db: call it with the transaction of the change it tells of. */
function notify(ctx: ActorContext, to: string, subject: string, body: string): Promise<void> {
  return queueMail(ctx, plainMail(brandOf(ctx.config), to, subject, body));
}

async function checkingOf(db: ActorContext['db'], userId: string): Promise<string> {
  const checking = await repository.checkingAccountId(db, userId);
  assert(checking, 'every customer has a checking account');
  return checking;
}

// ---------------------------------------------------------------- customer

export async function myLoans(ctx: ActorContext): Promise<LoanDto[]> {
  const rows = await repository.customerLoans(ctx.db, ctx.actor.user.id, LOANS_LISTED_MAX);
  return rows.map((row) => toLoanDto(row));
}

export async function applyForLoan(ctx: ActorContext, input: LoanApplication): Promise<Outcome<LoanDto>> {
  const user = ctx.actor.user;
  const row = await inTransaction(ctx.db, async (trx) => {
    await repository.lockCustomer(trx, user.id);
    if ((await repository.countPending(trx, user.id)) >= LOAN_PENDING_MAX)
      throw new AppError('conflict', `You already have ${LOAN_PENDING_MAX} applications under review. Please wait for a decision or withdraw one.`);
    const inserted = await repository.insertLoan(trx, user.id, terms(input));
    await notify(
      withDb(ctx, trx),
      user.email,
      'we received your loan application',
      `Hello ${user.first_name},\n\nWe received your application for a ${describe(inserted).toLowerCase()}, at an indicative ${inserted.annual_rate_bps / 100}% a year (about ${formatCents(inserted.monthly_payment_cents)} a month). ` +
        `Decisions usually take 1-3 business days for personal loans and 5-10 for business loans. We will email you the result.`,
    );
    return inserted;
  });
  return { data: toLoanDto(row), message: LOAN_SUCCESS_MESSAGE, created: true };
}

/** Changes or withdraws one of the customer's own applications while it is under review. */
async function changePending(ctx: ActorContext, id: string, change: Parameters<typeof repository.updateLoan>[2], refusal: string) {
  return inTransaction(ctx.db, async (trx) => {
    const loan = await repository.lockLoan(trx, id, ctx.actor.user.id);
    if (!loan) throw notFound(LOAN_NOT_FOUND);
    if (loan.status !== 'pending') throw new AppError('conflict', refusal);
    return repository.updateLoan(trx, id, change);
  });
}

export async function changeApplication(ctx: ActorContext, id: string, input: LoanApplication): Promise<Outcome<LoanDto>> {
  const row = await changePending(ctx, id, terms(input), 'Only an application under review can be changed.');
  return { data: toLoanDto(row), message: 'Loan application updated' };
}

export async function withdrawApplication(ctx: ActorContext, id: string): Promise<Outcome<LoanDto>> {
  const row = await changePending(ctx, id, { status: 'withdrawn' }, 'Only an application under review can be withdrawn.');
  return { data: toLoanDto(row), message: 'Loan application withdrawn' };
}

/**
 * The customer pays the next installment of an approved loan from checking: one entry moves the
 * principal part back to loans receivable and the interest part to interest income.
 */
export async function repayInstallment(ctx: ActorContext, id: string, ticket: IdempotencyTicket): Promise<Outcome<LoanDto>> {
  const user = ctx.actor.user;
  return ctx.ledger.transaction(async (trx, post) => {
    const loan = await repository.lockLoan(trx, id, user.id);
    if (!loan) throw notFound(LOAN_NOT_FOUND);
    if (loan.status !== 'approved') throw new AppError('conflict', 'Only an approved loan can be repaid.');
    const lines = scheduleOf(loan);
    assert(lines, 'an approved loan has a schedule');
    const line = lines[loan.installments_paid];
    if (!line) throw new AppError('conflict', LOAN_REPAID_MESSAGE);
    const installment = `${LOAN_PRODUCTS[loan.loan_type].label} installment ${line.number} of ${lines.length}`;
    const customerName = `${user.first_name} ${user.last_name}`;
    const [posted] = await post([
      {
        kind: 'loan',
        description: installment,
        authorId: user.id,
        details: { loanId: loan.id, installment: line.number, principalCents: line.principalCents, interestCents: line.interestCents },
        postings: [
          { accountId: await checkingOf(trx, user.id), amountCents: -line.paymentCents, memo: installment, counterparty: ctx.config.bankName },
          {
            accountId: await bankAccountId(trx, 'loans_receivable'),
            amountCents: line.principalCents,
            memo: `${installment}: principal`,
            counterparty: customerName,
          },
          ...(line.interestCents > 0
            ? [
                {
                  accountId: await bankAccountId(trx, 'interest_income'),
                  amountCents: line.interestCents,
                  memo: `${installment}: interest`,
                  counterparty: customerName,
                },
              ]
            : []),
        ],
      },
    ]);
    assert(posted, 'the installment was posted');
    const last = line.number === lines.length;
    const updated = await repository.updateLoan(trx, loan.id, {
      installments_paid: loan.installments_paid + 1,
      principal_repaid_cents: loan.principal_repaid_cents + line.principalCents,
      interest_paid_cents: loan.interest_paid_cents + line.interestCents,
      repaid_at: last ? ctx.clock.now() : null,
    });
    assert(!last || updated.principal_repaid_cents === updated.amount_cents, 'the last installment repays exactly what was lent');
    const outcome: Outcome<LoanDto> = {
      data: toLoanDto(updated),
      message: last ? `Installment ${line.number} of ${lines.length} paid: the loan is fully repaid.` : `Installment ${line.number} of ${lines.length} paid.`,
      created: true,
    };
    await storeOutcome(trx, ticket, outcome, posted.id);
    return outcome;
  });
}

// ---------------------------------------------------------------- staff

export async function loanQueue(ctx: ActorContext, status: LoanStatus | 'all', page: PageRequest): Promise<Paginated<LoanDto>> {
  const result = await repository.loanQueue(ctx.db, status, page);
  return { ...result, items: result.items.map((row) => toLoanDto(row, row)) };
}

/** Approval disburses the loan as a ledger entry, in the transaction that approves it; audited. */
export const LOAN_APPROVAL_REQUESTED_MESSAGE = 'Loan approval requested';

/** A loan is paid out only to an open account whose holder's identity is verified. */
function assertMayBorrow(customer: { closed_at: Date | null; verification_status: string }): void {
  if (customer.closed_at) throw new AppError('conflict', "The customer's account is closed.");
  if (customer.verification_status !== 'verified') throw new AppError('conflict', "The customer's identity is not verified yet: review their documents first.");
}

/**
 * Approval disburses the loan as a ledger entry, in the transaction that approves it; audited. A
 * loan above FOUR_EYES_LOAN_ABOVE waits for a second staff member first (ADR 023), whose approval
 * disburses it then (`gate`).
 */
export async function approveLoan(
  ctx: ActorContext,
  id: string,
  terms: LoanTerms,
  ticket: IdempotencyTicket,
  gate?: ApprovalGate,
): Promise<Outcome<LoanDto | ApprovalPending>> {
  if (needsApproval(ctx, gate)) {
    const loan = await repository.findLoan(ctx.db, id);
    if (!loan) throw notFound(LOAN_NOT_FOUND);
    if (loan.status !== 'pending') throw new AppError('conflict', `This application is already ${loan.status}.`);
    assertTerms(loan, terms);
    if (loan.amount_cents > ctx.config.fourEyesLoanAboveCents) {
      // What would refuse the payout is told the one who asks, not only the second staff member.
      assertMayBorrow(await repository.loanCustomer(ctx.db, loan.user_id));
      const summary = `Approve and pay out a ${describedInline(loan)}`;
      const payload = { loanId: loan.id, amount: loan.amount_cents / 100, loanType: loan.loan_type, durationMonths: loan.duration_months };
      return requestApproval(ctx, { kind: 'loan_approval', customerId: loan.user_id, summary, payload }, ticket, LOAN_APPROVAL_REQUESTED_MESSAGE);
    }
  }
  const { outcome } = await ctx.ledger.transaction(async (trx, post) => {
    await gate?.claim(trx);
    const loan = await repository.lockLoan(trx, id);
    if (!loan) throw notFound(LOAN_NOT_FOUND);
    if (loan.status !== 'pending') throw new AppError('conflict', `This application is already ${loan.status}.`);
    // What is paid out is what was approved: the terms shown (and, above the limit, what the second
    // staff member was asked), checked on the locked row a change by the customer would wait for.
    assertTerms(loan, terms);
    const customer = await repository.loanCustomer(trx, loan.user_id);
    assertMayBorrow(customer);
    const label = LOAN_PRODUCTS[loan.loan_type].label;
    const customerName = `${customer.first_name} ${customer.last_name}`;
    const [posted] = await post([
      {
        kind: 'loan',
        description: `${label} disbursement`,
        authorId: ctx.actor.user.id,
        details: {
          loanId: loan.id,
          loanType: loan.loan_type,
          durationMonths: loan.duration_months,
          annualRateBps: loan.annual_rate_bps,
          ...(gate ? { approvalId: gate.id } : {}),
        },
        postings: [
          {
            accountId: await bankAccountId(trx, 'loans_receivable'),
            amountCents: -loan.amount_cents,
            memo: `${label} to ${customerName}`,
            counterparty: customerName,
          },
          { accountId: await checkingOf(trx, customer.id), amountCents: loan.amount_cents, memo: `${label} disbursement`, counterparty: ctx.config.bankName },
        ],
      },
    ]);
    assert(posted, 'the disbursement was posted');
    const updated = await repository.updateLoan(trx, loan.id, {
      status: 'approved',
      decided_by: ctx.actor.user.id,
      decided_at: ctx.clock.now(),
      disbursement_entry_id: posted.id,
      disbursed_at: posted.bookedAt,
    });
    await audit(trx, ctx.actor, {
      action: 'loan.approve',
      targetUserId: customer.id,
      targetType: 'loan',
      targetId: loan.id,
      before: { status: loan.status },
      after: { status: 'approved', disbursementEntryId: posted.id, amountCents: loan.amount_cents },
    });
    const outcome: Outcome<LoanDto> = {
      data: toLoanDto(updated, customer),
      message: `Loan approved: ${formatCents(loan.amount_cents)} paid into the customer's checking account.`,
    };
    await storeOutcome(trx, ticket, outcome, posted.id);
    await notify(
      withDb(ctx, trx),
      customer.email,
      'your loan is approved',
      `Hello ${customer.first_name},\n\nYour ${describe(loan).toLowerCase()} is approved. ${formatCents(loan.amount_cents)} has been paid into your checking account. ` +
        `Your monthly payment is ${formatCents(loan.monthly_payment_cents)} at ${loan.annual_rate_bps / 100}% a year; the full schedule is on your Loans page.`,
    );
    return { outcome };
  });
  return outcome;
}

export const LOAN_TERMS_CHANGED_MESSAGE = (now: string) =>
  `The customer changed this application after it was shown: it is now a ${now}. Look at it again before you approve it.`;

/** A decision binds to the terms looked at: an application that says otherwise now is refused (409), nothing paid out. */
function assertTerms(loan: repository.LoanRow, terms: LoanTerms): void {
  if (loan.amount_cents === terms.loanAmount && loan.loan_type === terms.loanType && loan.duration_months === terms.loanDuration) return;
  throw new AppError('conflict', LOAN_TERMS_CHANGED_MESSAGE(describedInline(loan)));
}

export async function rejectLoan(ctx: ActorContext, id: string, reason: string): Promise<Outcome<LoanDto>> {
  const { row, customer } = await inTransaction(ctx.db, async (trx) => {
    const loan = await repository.lockLoan(trx, id);
    if (!loan) throw notFound(LOAN_NOT_FOUND);
    if (loan.status !== 'pending') throw new AppError('conflict', `This application is already ${loan.status}.`);
    const updated = await repository.updateLoan(trx, loan.id, {
      status: 'rejected',
      decision_reason: reason,
      decided_by: ctx.actor.user.id,
      decided_at: ctx.clock.now(),
    });
    await audit(trx, ctx.actor, {
      action: 'loan.reject',
      targetUserId: loan.user_id,
      targetType: 'loan',
      targetId: loan.id,
      before: { status: loan.status },
      after: { status: 'rejected' },
      reason,
    });
    const customer = await repository.loanCustomer(trx, loan.user_id);
    await notify(
      withDb(ctx, trx),
      customer.email,
      'your loan application',
      `Hello ${customer.first_name},\n\nWe are sorry: we cannot offer you the ${describe(updated).toLowerCase()} you applied for.\n\nReason: ${reason}`,
    );
    return { row: updated, customer };
  });
  return { data: toLoanDto(row, customer), message: 'Loan application rejected. The customer has been emailed the reason.' };
}
