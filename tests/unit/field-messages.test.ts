import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZApprovalRejection } from '../../src/shared/contracts/approvals';
import { ZKycRejectRequest } from '../../src/shared/contracts/kyc';
import { ZLoanApplication, ZLoanRejectRequest } from '../../src/shared/contracts/loans';
import { ZPaymentHoldRelease } from '../../src/shared/contracts/payment-holds';
import { ZPaymentRequestCreate } from '../../src/shared/contracts/payment-requests';
import { ZAdminAccountUpdate, ZAdminReversalRequest, ZTransactionListQuery, ZTransferAmount } from '../../src/shared/contracts/transactions';

// A refused field says what is wrong with what was typed, not the whole rule: "1,000.00" is told
// about its comma, "-5" about its minus sign, "x" as a loan purpose about its length (it is filled).

/** The message a field is refused with, as the form and the API show it (the first issue). */
const refusal = (schema: z.ZodType, input: unknown, field?: string): string | undefined => {
  const result = schema.safeParse(input);
  if (result.success) return undefined;
  const issue = field === undefined ? result.error.issues[0] : result.error.issues.find((candidate) => candidate.path[0] === field);
  return issue?.message;
};

describe('a money amount refused: the message names what is in the way', () => {
  const request = (amount: unknown) => refusal(ZPaymentRequestCreate, { to: 'someone@example.com', amount }, 'amount');

  it('tells a thousands separator, a third decimal place and letters apart', () => {
    expect(request('1,000.00')).toBe('Amount must be typed without commas, e.g. 1000.00');
    expect(request('1,000')).toBe('Amount must be typed without commas, e.g. 1000.00');
    expect(request('12.345')).toBe('Amount can have at most 2 decimal places');
    expect(request(12.345)).toBe('Amount can have at most 2 decimal places');
    expect(request('abc')).toBe('Amount must be a number, e.g. 25 or 99.50');
    expect(request('$25')).toBe('Amount must be a number, e.g. 25 or 99.50');
  });

  it("keeps the specification's words for a payment of zero or less, minus sign included", () => {
    expect(request('-5')).toBe('Amount must be greater than 0');
    expect(request('-12.345')).toBe('Amount must be greater than 0');
    expect(request('0')).toBe('Amount must be greater than 0');
    expect(refusal(ZTransferAmount, '')).toBe('Please fill all fields');
  });

  it('accepts what it accepted before', () => {
    for (const amount of ['1000.00', '25', '99.5', 120.25, ' 7.10 ']) expect(request(amount), String(amount)).toBeUndefined();
  });

  it("tells a range's end (the history filter's Amount from) about a minus sign", () => {
    const bound = (amountMin: string) => refusal(ZTransactionListQuery, { amountMin }, 'amountMin');
    expect(bound('-5')).toBe('amountMin cannot be negative');
    expect(bound('1,000')).toBe('amountMin must be typed without commas, e.g. 1000.00');
    expect(bound('1.234')).toBe('amountMin can have at most 2 decimal places');
    expect(bound('lots')).toBe('amountMin must be a number, e.g. 25 or 99.50');
    expect(bound('0')).toBeUndefined();
  });

  it("tells a loan's amount and a staff balance correction the same way", () => {
    const loan = (loanAmount: unknown) =>
      refusal(ZLoanApplication, { loanAmount, loanType: 'personal', loanDuration: 24, loanPurpose: 'A new roof' }, 'loanAmount');
    expect(loan('10,000')).toBe('Loan amount must be typed without commas, e.g. 1000.00');
    expect(loan('-5000')).toBe('Loan amount must be greater than 0');
    const balances = (savings: unknown) => refusal(ZAdminAccountUpdate, { savings, checking: 0, number: '0000000000', reason: 'Migration' }, 'savings');
    expect(balances('12.345')).toBe('Savings balance can have at most 2 decimal places');
    expect(balances('-1')).toBe('Savings balance cannot be negative');
  });
});

describe('a text too short: the message says how long, not that it is missing', () => {
  it('a loan purpose of one letter', () => {
    const purpose = (loanPurpose: string) =>
      refusal(ZLoanApplication, { loanAmount: 5000, loanType: 'personal', loanDuration: 24, loanPurpose }, 'loanPurpose');
    expect(purpose('x')).toBe('Loan purpose must be at least 3 characters');
    expect(purpose('  x  ')).toBe('Loan purpose must be at least 3 characters');
    expect(purpose('')).toBe('Loan purpose is required');
    expect(purpose('Car')).toBeUndefined();
  });

  it("a staff member's reason of one letter", () => {
    for (const [schema, blank, short] of [
      [ZKycRejectRequest, 'A reason is required', 'The reason must be at least 3 characters'],
      [ZLoanRejectRequest, 'A reason is required', 'The reason must be at least 3 characters'],
      [ZApprovalRejection, 'A reason is required (at least 3 characters)', 'Reason must be at least 3 characters'],
      [ZPaymentHoldRelease, 'A reason is required (at least 3 characters)', 'Reason must be at least 3 characters'],
      [ZAdminReversalRequest, 'A reason is required (at least 3 characters)', 'Reason must be at least 3 characters'],
    ] as const) {
      expect(refusal(schema, { reason: 'x' })).toBe(short);
      expect(refusal(schema, { reason: ' ' })).toBe(blank);
      expect(refusal(schema, {})).toBe('A reason is required');
    }
  });
});
