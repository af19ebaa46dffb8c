import { z } from 'zod';
import { AMOUNT_JSON_SCHEMA, amountProblem, dollarsToCents, formatCents } from '../money';
import { TEXT_LENGTH_MAX } from '../limits';
import { controlCharactersMessage, envelope, MULTI_LINE_TEXT, paginated, ZPage, ZTimestamp } from './common';

// Loan products. Limits come from the marketing figures (spec section 9) and are recorded in
// docs/decisions/005-loan-limits.md; the rates are indicative, shown before applying.

export const LOAN_TYPES = ['auto', 'home', 'personal', 'business'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];
export const LOAN_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** "Loans repayable over one to five years." */
export const LOAN_DURATION_MONTHS_MIN = 12;
export const LOAN_DURATION_MONTHS_MAX = 60;
/** The shortest loan purpose the bank takes: a word, not a letter. */
export const LOAN_PURPOSE_LENGTH_MIN = 3;
export const LOAN_PURPOSE_LENGTH_MAX = 1000;
export const LOAN_PENDING_MAX = 3;

export interface LoanProduct {
  type: LoanType;
  label: string;
  minCents: number;
  maxCents: number;
  /** Indicative annual rate in basis points (1/100 of a percent). */
  annualRateBps: number;
}

export const LOAN_PRODUCTS: Record<LoanType, LoanProduct> = {
  personal: { type: 'personal', label: 'Personal loan', minCents: 250_000, maxCents: 5_000_000, annualRateBps: 999 },
  auto: { type: 'auto', label: 'Auto loan', minCents: 500_000, maxCents: 10_000_000, annualRateBps: 649 },
  home: { type: 'home', label: 'Home loan (home equity)', minCents: 1_000_000, maxCents: 25_000_000, annualRateBps: 725 },
  business: { type: 'business', label: 'Business loan', minCents: 500_000, maxCents: 25_000_000, annualRateBps: 875 },
};

export const LOAN_SUCCESS_MESSAGE = 'Loan application submitted successfully, check your email for updates.';
export const LOAN_FAILURE_MESSAGE = 'An error occurred, please try again.';

export const formatRate = (bps: number) => `${(bps / 100).toFixed(2)}%`;

/**
 * The fixed monthly payment of an amortizing loan: P * r / (1 - (1 + r)^-n), rounded up to the
 * cent so the payments never fall short of the debt (the last one is trimmed instead).
 */
export function monthlyPaymentCents(amountCents: number, annualRateBps: number, months: number): number {
  if (months <= 0 || amountCents <= 0) return 0;
  const rate = annualRateBps / 10_000 / 12;
  if (rate === 0) return Math.ceil(amountCents / months);
  return Math.ceil((amountCents * rate) / (1 - (1 + rate) ** -months));
}

export const ZScheduleRow = z.object({
  number: z.number().int().describe('The installment, counted from 1.'),
  dueDate: z.string().describe('YYYY-MM-DD: a month after the previous one, from the payout date.'),
  payment: z.number().describe('Dollars: principal plus interest.'),
  principal: z.number().describe('Dollars of the debt it repays.'),
  interest: z.number().describe("Dollars of interest on the month's open balance."),
  balance: z.number().describe('Dollars still owed after it.'),
});
export type ScheduleRow = z.infer<typeof ZScheduleRow>;

function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The repayment schedule in cents: interest on the open balance each month, the last payment trimmed. */
export function repaymentScheduleCents(amountCents: number, annualRateBps: number, months: number, startDate: string) {
  const payment = monthlyPaymentCents(amountCents, annualRateBps, months);
  const rate = annualRateBps / 10_000 / 12;
  const rows: Array<{ number: number; dueDate: string; paymentCents: number; principalCents: number; interestCents: number; balanceCents: number }> = [];
  let balance = amountCents;
  for (let number = 1; number <= months && balance > 0; number += 1) {
    const interest = Math.round(balance * rate);
    let principal = Math.min(balance, payment - interest);
    if (number === months) principal = balance;
    balance -= principal;
    rows.push({
      number,
      dueDate: addMonths(startDate, number),
      paymentCents: principal + interest,
      principalCents: principal,
      interestCents: interest,
      balanceCents: balance,
    });
  }
  return rows;
}

const amount = z
  .union([z.number(), z.string().max(20)], { message: 'Loan amount is required' })
  .meta(AMOUNT_JSON_SCHEMA)
  .transform((value, ctx) => {
    const cents = dollarsToCents(value);
    // What is in the way ("1,000.00": the comma); a minus sign or zero is told the amount's floor.
    if (cents === null && !String(value).trim().startsWith('-')) {
      ctx.addIssue({ code: 'custom', message: amountProblem('Loan amount', value) });
      return z.NEVER;
    }
    if (cents === null || cents <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Loan amount must be greater than 0' });
      return z.NEVER;
    }
    return cents;
  });

/** POST /api/loans and PUT /api/loans/{id}: { loanAmount, loanType, loanDuration, loanPurpose } (spec section 3). */
export const ZLoanApplication = z
  .object({
    loanAmount: amount.describe(
      "Decimal dollars with at most 2 places, within the loan type's range: personal 2,500-50,000; auto 5,000-100,000; home 10,000-250,000; business 5,000-250,000.",
    ),
    loanType: z
      .enum(LOAN_TYPES, { message: 'Loan type must be auto, home, personal or business' })
      .describe('The loan product: it sets the amount range and the indicative rate.'),
    loanDuration: z.coerce
      .number({ message: 'Loan duration is required' })
      .int('Loan duration must be a whole number of months')
      .min(LOAN_DURATION_MONTHS_MIN, `Loan duration must be between ${LOAN_DURATION_MONTHS_MIN} and ${LOAN_DURATION_MONTHS_MAX} months`)
      .max(LOAN_DURATION_MONTHS_MAX, `Loan duration must be between ${LOAN_DURATION_MONTHS_MIN} and ${LOAN_DURATION_MONTHS_MAX} months`)
      .describe('Months to repay it in, 12 to 60.'),
    loanPurpose: z
      .string({ message: 'Loan purpose is required' })
      .trim()
      .min(1, 'Loan purpose is required')
      .min(LOAN_PURPOSE_LENGTH_MIN, `Loan purpose must be at least ${LOAN_PURPOSE_LENGTH_MIN} characters`)
      .max(LOAN_PURPOSE_LENGTH_MAX, `Loan purpose must be at most ${LOAN_PURPOSE_LENGTH_MAX} characters`)
      .regex(MULTI_LINE_TEXT, controlCharactersMessage('Loan purpose'))
      .describe('What the loan is for; line breaks kept.'),
  })
  .superRefine((value, ctx) => {
    const product = LOAN_PRODUCTS[value.loanType];
    if (value.loanAmount < product.minCents || value.loanAmount > product.maxCents) {
      ctx.addIssue({
        code: 'custom',
        path: ['loanAmount'],
        message: `A ${product.label.toLowerCase()} is between ${formatCents(product.minCents)} and ${formatCents(product.maxCents)}`,
      });
    }
  });
export type LoanApplication = z.input<typeof ZLoanApplication>;

/**
 * POST /api/admin/loans/{id}/approve: the terms the staff member approves, as the queue showed them.
 * The customer may change an application under review; a decision binds to what was looked at, so
 * an application that says otherwise now is refused (409), and so is a second staff member's
 * approval of terms that changed after it was asked for.
 */
export const ZLoanApproveRequest = z.object({
  loanAmount: amount.describe('The amount shown, in dollars.'),
  loanType: z.enum(LOAN_TYPES, { message: 'Loan type must be auto, home, personal or business' }).describe('The loan product shown.'),
  loanDuration: z
    .number({ message: 'Loan duration is required' })
    .int('Loan duration must be a whole number of months')
    .positive('Loan duration must be a whole number of months')
    .max(LOAN_DURATION_MONTHS_MAX, `Loan duration must be between ${LOAN_DURATION_MONTHS_MIN} and ${LOAN_DURATION_MONTHS_MAX} months`)
    .describe('The months shown.'),
});
export type LoanTerms = z.output<typeof ZLoanApproveRequest>;

export const ZLoanRejectRequest = z.object({
  reason: z
    .string({ message: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .min(3, 'The reason must be at least 3 characters')
    .max(TEXT_LENGTH_MAX, `The reason must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(MULTI_LINE_TEXT, controlCharactersMessage('The reason'))
    .describe('Why the application is rejected: emailed to the customer and shown as decisionReason.'),
});

export const ZLoanQueueQuery = ZPage.extend({
  status: z
    .enum([...LOAN_STATUSES, 'all'], { message: 'status must be pending, approved, rejected, withdrawn or all' })
    .default('pending')
    .describe('Only applications with this status; all: every one.'),
});

/** A loan as the API carries it: amounts in dollars. */
export const ZLoan = z
  .object({
    _id: z.string().describe("The loan's id."),
    loanAmount: z.number().describe('Dollars.'),
    loanType: z.enum(LOAN_TYPES),
    loanDuration: z.number().int().describe('Months.'),
    loanPurpose: z.string(),
    status: z.enum(LOAN_STATUSES).describe('pending: under review; approved (paid out into checking); rejected; withdrawn by the customer.'),
    interestRate: z.number().describe('The annual rate in percent, e.g. 9.99.'),
    monthlyPayment: z.number().describe('Dollars a month.'),
    totalRepayment: z.number().describe('Dollars repaid over the whole loan, interest included.'),
    decisionReason: z.string().nullable().describe("A rejection's reason; null otherwise."),
    decidedAt: ZTimestamp.nullable(),
    disbursedAt: ZTimestamp.nullable().describe('When the amount was paid into checking; null until approved.'),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
    /** Approved loans only. */
    schedule: z.array(ZScheduleRow).nullable(),
    /** Installments paid so far (the first `installmentsPaid` rows of the schedule). */
    installmentsPaid: z.number().int(),
    principalRepaid: z.number().describe('Dollars.'),
    interestPaid: z.number().describe('Dollars.'),
    /** Principal still owed: the loan amount less the principal repaid (0 until approved). */
    outstanding: z.number().describe('Dollars of principal still owed (0 until approved).'),
    /** The installment a repayment pays now; null when nothing is due (not approved, or repaid). */
    nextInstallment: ZScheduleRow.nullable(),
    repaidAt: ZTimestamp.nullable(),
    /** Staff views name the customer. */
    customer: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), verificationStatus: z.string() }).optional(),
  })
  .meta({ id: 'Loan' });
export type LoanDto = z.infer<typeof ZLoan>;

export const ZLoanAnswer = envelope(ZLoan);
export const ZLoanList = envelope(z.array(ZLoan));
export const ZLoanQueue = envelope(paginated(ZLoan));

export const LOAN_REPAID_MESSAGE = 'This loan is fully repaid.';
