import { z } from 'zod';
import { NAME_LENGTH_MAX, OTP_LENGTH, STAFF_VALUE_DATE_WINDOW_DAYS, TEXT_LENGTH_MAX } from '../limits';
import { addDays, todayIso } from '../dates';
import { AMOUNT_CENTS_MAX, amountBoundCents, amountCents, amountProblem, beyondLimit, dollarsToCents, formatCents } from '../money';
import { ZApprovalFields, ZCodesLeft, ZPasskeyApprovalStep, ZPayeeCheck, ZRowPayeeCheck } from './payment-approval';
import { controlCharactersMessage, envelope, isoDate, optionalText, paginated, SINGLE_LINE_TEXT, ZPage, ZTimestamp } from './common';
import { isValidBeneficiaryAccount, isValidBic, isValidRoutingNumber, isWireCountry, WIRE_ACCOUNT_TYPES } from '../wire';

export const ENTRY_KINDS = ['opening', 'transfer', 'wire', 'internal', 'adjustment', 'reversal', 'loan', 'standing_order'] as const;
export type EntryKindName = (typeof ENTRY_KINDS)[number];
export const CUSTOMER_ACCOUNTS = ['savings', 'checking'] as const;
export type CustomerAccountKind = (typeof CUSTOMER_ACCOUNTS)[number];

/** One line of a customer's history: a posting on their savings or checking account. */
export const ZTransaction = z
  .object({
    _id: z.string().describe("The line's id (a posting of the entry)."),
    /** The journal entry this line belongs to (an internal transfer shows as two lines of one entry). */
    entryId: z.string().describe('The journal entry this line belongs to (an internal transfer shows as two lines of one entry).'),
    description: z.string().describe("How the line reads: staff's correction, else the line's memo, else the entry's description."),
    /** Value date, YYYY-MM-DD. */
    date: z.string().describe('The value date, YYYY-MM-DD.'),
    /** When the bank booked it (ISO 8601); never editable. */
    bookedAt: ZTimestamp.describe('When the bank booked it (ISO 8601, UTC); never editable.'),
    /** Positive dollars. */
    amount: z.number().describe('Dollars, positive: transactionType says which way.'),
    transactionType: z.enum(['debit', 'credit']).describe('credit: money into the account; debit: money out of it.'),
    account: z.enum(CUSTOMER_ACCOUNTS).describe("The customer's account the line is on."),
    kind: z
      .enum(ENTRY_KINDS)
      .describe(
        'What posted the entry: opening (balance), transfer, wire, internal (between own accounts), adjustment (staff), reversal, loan, standing_order.',
      ),
    status: z.enum(['completed', 'reversed']).describe('reversed: a later entry (reversedBy) undid it.'),
    reversalOf: z.string().nullable().describe('The entry this one reverses; null otherwise.'),
    reversedBy: z.string().nullable().describe('The entry that reverses this one; null otherwise.'),
    counterparty: z.string().nullable().describe('The other party as recorded (payee or payer); null when none.'),
    /** Balance of that account right after this line, dollars. */
    balanceAfter: z.number().describe("The account's balance right after this line, in dollars."),
  })
  .meta({ id: 'Transaction' });
export type TransactionDto = z.infer<typeof ZTransaction>;

/** An admin list line also names the customer. */
export const ZAdminTransaction = ZTransaction.extend({
  userId: z.string().describe("The customer's user _id."),
  customerName: z.string().describe("The customer's name."),
  accountNumber: z.string().describe("The customer's 10-digit account number."),
}).meta({
  id: 'AdminTransaction',
});
export type AdminTransactionDto = z.infer<typeof ZAdminTransaction>;

export interface TransactionPage<T = TransactionDto> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export const ZTransactionPageAnswer = envelope(paginated(ZTransaction));
export const ZAdminTransactionPageAnswer = envelope(paginated(ZAdminTransaction));
export const ZTransactionAnswer = envelope(ZTransaction);
export const ZTransactionLinesAnswer = envelope(z.array(ZTransaction));

/** The longest text a history search takes. */
export const SEARCH_LENGTH_MAX = 100;
export const AMOUNT_RANGE_MESSAGE = 'amountMin must not be more than amountMax';
export const DATE_RANGE_MESSAGE = 'from must be on or before to';

/** An end of the amount range, compared with a line's amount; cents inside. */
const amountBound = (name: 'amountMin' | 'amountMax') =>
  amountBoundCents(
    name,
    AMOUNT_CENTS_MAX,
    `${name === 'amountMin' ? 'Smallest' : 'Largest'} amount of a line, decimal dollars (a debit and a credit compare by their size), e.g. 25 or 99.50`,
  );

export const ZTransactionListQuery = ZPage.extend({
  account: z.enum(CUSTOMER_ACCOUNTS, { message: 'account must be savings or checking' }).optional().describe('Only lines on this account (absent: both).'),
  type: z.enum(['debit', 'credit'], { message: 'type must be debit or credit' }).optional().describe('Only credits (money in) or only debits (money out).'),
  from: isoDate('from').optional().describe('Value dates from this day on (YYYY-MM-DD), included.'),
  to: isoDate('to').optional().describe('Value dates up to this day (YYYY-MM-DD), included.'),
  /** Words found in the description or the counterparty (case does not matter). */
  q: optionalText('Search', SEARCH_LENGTH_MAX).describe(
    'Words every line found has in its description, memo, counterparty or staff note (case ignored; the last may be the start of a word).',
  ),
  amountMin: amountBound('amountMin'),
  amountMax: amountBound('amountMax'),
})
  .refine((query) => query.amountMin === undefined || query.amountMax === undefined || query.amountMin <= query.amountMax, {
    message: AMOUNT_RANGE_MESSAGE,
    path: ['amountMax'],
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, { message: DATE_RANGE_MESSAGE, path: ['to'] });
export type TransactionListQuery = z.infer<typeof ZTransactionListQuery>;

// ---------------------------------------------------------------- money in and out per month

/** How many months the history's chart covers: this one and the eleven before it. */
export const MONTHLY_TOTALS_MONTHS = 12;

export const ZMonthlyTotalsQuery = z.object({
  account: z.enum(CUSTOMER_ACCOUNTS, { message: 'account must be savings or checking' }).optional().describe('Only this account (absent: both).'),
});

export const ZMonthTotals = z
  .object({
    /** YYYY-MM, by value date. */
    month: z.string().describe('YYYY-MM, by value date.'),
    /** Dollars that came in (credits). */
    moneyIn: z.number().describe('Dollars that came in (credits).'),
    /** Dollars that went out (debits), positive. */
    moneyOut: z.number().describe('Dollars that went out (debits), positive.'),
  })
  .meta({ id: 'MonthTotals' });
export type MonthTotalsDto = z.infer<typeof ZMonthTotals>;
/** The last MONTHLY_TOTALS_MONTHS months, oldest first, every month present (zero when quiet). */
export const ZMonthlyTotalsAnswer = envelope(z.object({ months: z.array(ZMonthTotals) }));
export type MonthlyTotals = { months: MonthTotalsDto[] };

const FILL_ALL = 'Please fill all fields';

/** Amount in dollars; missing is 'Please fill all fields', zero or less is 'Amount must be greater than 0'. */
export const ZTransferAmount = amountCents(FILL_ALL);

const filled = (label: string, max: number) =>
  z
    .string({ message: FILL_ALL })
    .trim()
    .min(1, FILL_ALL)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage(label));

const accountKind = (message: string) => z.enum(CUSTOMER_ACCOUNTS, { message });

/** The IMS code: absent on the first call; present (6 digits) on the call that posts. */
export const ZPaymentPin = z
  .string({ message: 'Please enter IMS code' })
  .trim()
  .meta({ pattern: `^[0-9]{${OTP_LENGTH}}$`, description: 'The IMS code emailed by the first call; absent on the first call.' })
  .optional()
  .superRefine((value, ctx) => {
    if (value === undefined) return;
    if (value === '') ctx.addIssue({ code: 'custom', message: 'Please enter IMS code' });
    else if (!new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(value)) ctx.addIssue({ code: 'custom', message: `The IMS code is ${OTP_LENGTH} digits` });
  });

export const ZInternalTransferRequest = z
  .object({
    from: accountKind(FILL_ALL).describe("The customer's account the money leaves."),
    to: accountKind(FILL_ALL).describe("The customer's other account, where it goes."),
    amount: ZTransferAmount,
  })
  .refine((value) => value.from !== value.to, { message: 'You cannot transfer to the same account', path: ['to'] });
export type InternalTransferRequest = z.input<typeof ZInternalTransferRequest>;

export const ZTransferRequest = z.object({
  /** The customer's own account number; informative only: the server trusts the session. */
  from: optionalText('From', 20).describe("The customer's own 10-digit account number, optional; any other number is refused (403)."),
  amount: ZTransferAmount,
  accountType: accountKind(FILL_ALL).describe("The customer's account the money leaves."),
  accountNumber: filled('Account number', 34)
    .refine((value) => /^[0-9]{4,17}$/.test(value), 'Account number must be 4 to 17 digits')
    .describe("The recipient's account number: a customer's at this bank, or an account at another bank."),
  routingNumber: optionalText('Routing number', 9)
    .refine((value) => value === undefined || isValidRoutingNumber(value), 'Routing number must be a valid 9-digit ABA number')
    .describe("The other bank's 9-digit ABA routing number: required, with bankName, for an account not at this bank."),
  bankName: optionalText('Bank name', NAME_LENGTH_MAX).describe("The other bank's name: required, with routingNumber, for an account not at this bank."),
  to: filled('Recipient', NAME_LENGTH_MAX).describe("The recipient's name; for an account at this bank it is checked against the holder's (payeeCheck)."),
  description: optionalText('Description', TEXT_LENGTH_MAX).describe('A memo for both histories; absent: "Transfer to" the recipient.'),
  paymentPin: ZPaymentPin,
  ...ZApprovalFields,
});
export type TransferRequest = z.input<typeof ZTransferRequest>;

export const ZWireTransferRequest = z.object({
  amount: ZTransferAmount,
  /** The customer's account the money leaves. */
  account: accountKind('account must be savings or checking').default('checking').describe("The customer's account the money leaves."),
  beneficiaryName: filled('Beneficiary name', NAME_LENGTH_MAX).describe("The beneficiary's name (another bank's holder is not checked)."),
  beneficiaryAccount: filled('Beneficiary account', 40)
    .refine(isValidBeneficiaryAccount, 'Beneficiary account must be a valid IBAN or 4 to 34 letters and digits')
    .describe("The beneficiary's IBAN, or account number of 4 to 34 letters and digits (spaces and dashes ignored)."),
  bankName: filled('Bank name', NAME_LENGTH_MAX).describe("The beneficiary's bank."),
  country: filled('Country', 2)
    .refine(isWireCountry, 'Please choose a country from the list')
    .describe("The beneficiary bank's country, an ISO 3166 code such as GB: the SWIFT/BIC's country."),
  swiftCode: filled('SWIFT/BIC', 11)
    .transform((value) => value.toUpperCase())
    .refine(isValidBic, 'SWIFT/BIC must be 8 or 11 characters: bank (4 letters), country (2), location (2), optional branch (3)')
    .describe("The beneficiary bank's SWIFT/BIC, 8 or 11 characters (case ignored)."),
  accountType: z.enum(WIRE_ACCOUNT_TYPES, { message: 'Please choose an account type from the list' }).describe("The beneficiary account's type."),
  description: optionalText('Description', TEXT_LENGTH_MAX).describe('A memo for the history; absent: "Wire to" the beneficiary.'),
  paymentPin: ZPaymentPin,
  ...ZApprovalFields,
});
export type WireTransferRequest = z.input<typeof ZWireTransferRequest>;

/** Answer to the first call of a transfer: the code is on its way. */
export const ZTransferCodeSent = z.object({
  step: z.literal('code').describe('Approve with the IMS code emailed now: the second call carries it as paymentPin.'),
  expiresAt: ZTimestamp.describe('The code works until then (5 minutes, 5 attempts).'),
  /** Where the code went, masked. */
  sentTo: z.string().describe("Where the code went: the customer's email, masked."),
  amount: z.number().describe('What the code approves, in dollars.'),
  payee: z.string().describe('Who is paid, as the payment names them.'),
  /** A transfer by account number: the recipient name checked against the account's holder. */
  payeeCheck: ZPayeeCheck.optional().describe("The recipient name checked against the account's holder; absent when no name is checked."),
  /** A bulk payment: its rows whose name is not the account holder's (none: every name matches). */
  payeeChecks: z.array(ZRowPayeeCheck).optional().describe("A bulk payment: its rows whose name is not the account holder's (empty: every name matches)."),
  codesLeft: ZCodesLeft,
});
export type TransferCodeSent = z.infer<typeof ZTransferCodeSent>;

/** The first call's answer: the emailed code's step, or (a customer with a passkey) the passkey's (ADR 024). */
export const ZApprovalStep = z.discriminatedUnion('step', [ZTransferCodeSent, ZPasskeyApprovalStep]);
export type ApprovalStep = z.infer<typeof ZApprovalStep>;

/** The first call answers 200 with the approval step; the call with the approval answers 201 with the posted line. */
export const ZTransferCodeAnswer = envelope(ZApprovalStep);

const ALL_REQUIRED = 'All fields are required';
const reason = z
  .string({ message: 'A reason is required' })
  .trim()
  .min(1, 'A reason is required (at least 3 characters)')
  .min(3, 'Reason must be at least 3 characters')
  .max(TEXT_LENGTH_MAX, `Reason must be at most ${TEXT_LENGTH_MAX} characters`)
  .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Reason'))
  .describe('Why (at least 3 characters): recorded with the entry and in the audit log.');

/** A staff value date: a real date within STAFF_VALUE_DATE_WINDOW_DAYS of today (the booking time is never editable). */
const staffValueDate = isoDate('Value date').refine((value) => {
  const today = todayIso();
  return value >= addDays(today, -STAFF_VALUE_DATE_WINDOW_DAYS) && value <= addDays(today, STAFF_VALUE_DATE_WINDOW_DAYS);
}, `The value date must be within ${STAFF_VALUE_DATE_WINDOW_DAYS} days of today`);

export const ZAdminTransactionRequest = z.object({
  amount: ZTransferAmount.pipe(z.number()),
  transactionType: z.enum(['credit', 'debit'], { message: ALL_REQUIRED }).describe('credit adds the amount to the account; debit takes it out.'),
  // The regex repeats staffValueDate's first check so the OpenAPI document shows the pattern (a pipe's
  // inner schema is not part of the input's JSON Schema); the messages are the same.
  date: z
    .string({ message: ALL_REQUIRED })
    .min(1, ALL_REQUIRED)
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates look like YYYY-MM-DD')
    .pipe(staffValueDate)
    .describe('The value date, YYYY-MM-DD, within 366 days of today (the booking time is always now).'),
  description: z
    .string({ message: ALL_REQUIRED })
    .trim()
    .min(1, ALL_REQUIRED)
    .max(TEXT_LENGTH_MAX, `Description must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Description'))
    .describe("What the customer's history shows."),
  reason,
  account: accountKind('account must be savings or checking').default('checking').describe("The customer's account."),
});
export type AdminTransactionRequest = z.input<typeof ZAdminTransactionRequest>;

export const ZAdminTransactionUpdate = z.object({
  description: z
    .string({ message: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .max(TEXT_LENGTH_MAX, `Description must be at most ${TEXT_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Description'))
    .describe('How the entry reads from now on (a note on it: the entry itself never changes).'),
  reason: reason.optional().describe('Why, for the audit log (at least 3 characters); optional.'),
});

export const ZAdminReversalRequest = z.object({ reason });

/** Balance targets in dollars (zero allowed), as the admin form sends them; `subject` names the one at fault. */
const balanceTarget = (subject: string) =>
  z
    .unknown()
    .meta({
      anyOf: [
        { type: 'number', minimum: 0, maximum: (AMOUNT_CENTS_MAX * 10) / 100, multipleOf: 0.01 },
        { type: 'string', pattern: '^[0-9]{1,12}(\\.[0-9]{1,2})?$' },
      ],
      description: 'The balance to set, decimal dollars (zero allowed) with at most 2 places, e.g. 2500.75',
      examples: [2500.75],
    })
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === '') {
        ctx.addIssue({ code: 'custom', message: ALL_REQUIRED });
        return z.NEVER;
      }
      const cents = dollarsToCents(value);
      if (beyondLimit(value, cents, AMOUNT_CENTS_MAX * 10)) {
        ctx.addIssue({ code: 'custom', message: `Balances must be at most ${formatCents(AMOUNT_CENTS_MAX * 10)}` });
        return z.NEVER;
      }
      if (cents === null || cents < 0) {
        ctx.addIssue({ code: 'custom', message: amountProblem(subject, value) });
        return z.NEVER;
      }
      return cents;
    });

export const ZAdminAccountUpdate = z.object({
  savings: balanceTarget('Savings balance'),
  checking: balanceTarget('Checking balance'),
  number: z
    .string({ message: ALL_REQUIRED })
    .trim()
    .min(1, ALL_REQUIRED)
    .regex(/^[0-9]{10}$/, 'Account number must be 10 digits')
    .describe("The customer's account number: 10 digits with a valid check digit, not another customer's."),
  reason,
});
export type AdminAccountUpdate = z.input<typeof ZAdminAccountUpdate>;

export const ENTRY_KIND_LABELS: Record<EntryKindName, string> = {
  opening: 'Opening balance',
  transfer: 'Transfer',
  wire: 'Wire transfer',
  internal: 'Between your accounts',
  adjustment: 'Adjustment',
  reversal: 'Reversal',
  loan: 'Loan',
  standing_order: 'Standing order',
};
