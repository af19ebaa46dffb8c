import { z } from 'zod';
import { NAME_LENGTH_MAX, OTP_LENGTH, TEXT_LENGTH_MAX } from '../limits';
import { AMOUNT_JSON_SCHEMA, amountCents } from '../money';
import { controlCharactersMessage, envelope, MULTI_LINE_TEXT, SINGLE_LINE_TEXT, ZTimestamp } from './common';
import { ZApprovalFields, ZCodesLeft, ZPasskeyApprovalStep, ZRowPayeeCheck } from './payment-approval';
import { CUSTOMER_ACCOUNTS } from './transactions';

// Bulk payments (issue 14): up to BULK_PAYMENTS_MAX payments to accounts at this bank, validated
// row by row, approved once with an IMS code bound to the whole batch, posted all or nothing.

/** The most payments one batch holds (the ledger posts at most 1,000 entries in one call). */
export const BULK_PAYMENTS_MAX = 1000;
/** A CSV upload's largest size: 1,000 rows of the longest fields fit well under it. */
export const BULK_CSV_CHARS_MAX = 1_000_000;
/** The request body limit of the bulk call (JSON rows or the CSV text), bytes. */
export const BULK_BODY_BYTES_MAX = 2 * 1024 * 1024;
/** The CSV's columns, in the template's order (a file may order them as it likes; the header names them). */
export const BULK_CSV_COLUMNS = ['accountNumber', 'amount', 'name', 'description'] as const;
export type BulkField = (typeof BULK_CSV_COLUMNS)[number];

export const BULK_ROWS_MESSAGE = 'Some payments cannot be made. Nothing was paid: correct the rows below and try again.';
export const BULK_TOO_MANY_MESSAGE = `A batch holds at most ${BULK_PAYMENTS_MAX.toLocaleString('en-US')} payments.`;
export const BULK_EMPTY_MESSAGE = 'Add at least one payment.';
export const BULK_SUCCESS_MESSAGE = 'Bulk payment successful';

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage(label));

/** One payment as the customer writes it (a JSON row or a CSV line); amounts become cents. */
export const ZBulkPaymentRow = z.object({
  accountNumber: text('Account number', 34)
    .min(1, 'Account number is required')
    .refine((value) => /^[0-9]{10}$/.test(value), 'Account number must be 10 digits'),
  amount: amountCents('Amount is required'),
  name: text('Name', NAME_LENGTH_MAX).min(1, 'Name is required'),
  description: text('Description', TEXT_LENGTH_MAX)
    .optional()
    .transform((value) => value || undefined),
});
export type BulkPaymentRowInput = z.input<typeof ZBulkPaymentRow>;
export type BulkPaymentRow = z.output<typeof ZBulkPaymentRow>;

/** What is wrong with one row: `row` counts payments from 1 (a CSV's first line after its header is row 1). */
export const ZBulkRowError = z.object({ row: z.number().int(), field: z.string(), message: z.string() }).meta({ id: 'BulkRowError' });
export type BulkRowError = z.infer<typeof ZBulkRowError>;

/** The 400 of a batch with bad rows: every row's errors, and nothing was posted. */
export const ZBulkRowsFailure = z
  .object({ message: z.string(), code: z.string().optional(), rows: z.array(ZBulkRowError).optional(), fields: z.record(z.string(), z.string()).optional() })
  .meta({ id: 'BulkRowsFailure' });

/** Checks each row alone (shape and format; the server then checks the accounts): the valid rows, or every row's errors. */
export function checkBulkRows(rows: unknown[]): { ok: true; rows: BulkPaymentRow[] } | { ok: false; errors: BulkRowError[] } {
  const valid: BulkPaymentRow[] = [];
  const errors: BulkRowError[] = [];
  rows.forEach((value, index) => {
    const parsed = ZBulkPaymentRow.safeParse(value);
    if (parsed.success) valid.push(parsed.data);
    else {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        if (seen.has(field)) continue;
        seen.add(field);
        errors.push({ row: index + 1, field, message: field === 'row' ? 'Each payment has an accountNumber, amount, name and description' : issue.message });
      }
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows: valid };
}

/**
 * A parsed CSV (an array of records, the first one the header) as payment rows. The header names
 * the columns (any order, case and spaces ignored); a missing required column is the error of
 * every row. Answers the rows, each with the row a spreadsheet shows it on (`sheetRowOf` a record's
 * index; by default the header is row 1 and no line was blank), or what is wrong with the file as a
 * whole. The API's `row` is a payment's place in the batch; people fixing a file look for the
 * spreadsheet's row.
 */
export function rowsFromCsvRecords(
  records: string[][],
  sheetRowOf: (recordIndex: number) => number = (recordIndex) => recordIndex + 1,
): { rows: Array<Record<string, string>>; sheetRows: number[] } | { error: string } {
  const [header, ...lines] = records;
  if (!header) return { error: 'The CSV file is empty. Start from the template.' };
  const normalized = header.map((cell) =>
    cell
      .replace(/^\uFEFF/, '')
      .replace(/\s+/g, '')
      .toLowerCase(),
  );
  const positions = Object.fromEntries(BULK_CSV_COLUMNS.map((column) => [column, normalized.indexOf(column.toLowerCase())])) as Record<BulkField, number>;
  const missing = BULK_CSV_COLUMNS.filter((column) => column !== 'description' && positions[column] < 0);
  if (missing.length > 0) return { error: `The CSV header must name the columns ${BULK_CSV_COLUMNS.join(', ')} (missing: ${missing.join(', ')}).` };
  const kept = lines.map((line, index) => ({ line, sheetRow: sheetRowOf(index + 1) })).filter(({ line }) => line.some((cell) => cell.trim() !== ''));
  const rows = kept.map(({ line }) => {
    const row: Record<string, string> = {};
    for (const column of BULK_CSV_COLUMNS) {
      const position = positions[column];
      if (position >= 0 && line[position] !== undefined) row[column] = line[position];
    }
    return row;
  });
  return { rows, sheetRows: kept.map(({ sheetRow }) => sheetRow) };
}

const ZPaymentPin = z
  .string({ message: 'Please enter IMS code' })
  .trim()
  .min(1, 'Please enter IMS code')
  .regex(new RegExp(`^[0-9]{${OTP_LENGTH}}$`), `The IMS code is ${OTP_LENGTH} digits`)
  .meta({ description: 'The IMS code emailed by the first call; absent on the first call.' })
  .optional();

/**
 * The request: `payments` (JSON rows) or `csv` (the text of a CSV file with a header line), not
 * both. The rows themselves are checked by the service, all of them, so that one answer names
 * every bad row; here only their number is limited.
 */
export const ZBulkPaymentFields = z.object({
  from: z.enum(CUSTOMER_ACCOUNTS, { message: 'from must be savings or checking' }).describe("The customer's account every payment leaves."),
  payments: z
    .array(
      z.unknown().meta({
        type: 'object',
        properties: {
          accountNumber: { type: 'string', pattern: '^[0-9]{10}$', description: "The payee's 10-digit account number at this bank." },
          amount: AMOUNT_JSON_SCHEMA,
          name: {
            type: 'string',
            maxLength: NAME_LENGTH_MAX,
            pattern: SINGLE_LINE_TEXT.source,
            description: "The payee's name, checked against the account holder's (payeeChecks).",
          },
          description: {
            type: 'string',
            maxLength: TEXT_LENGTH_MAX,
            pattern: SINGLE_LINE_TEXT.source,
            description: 'A memo for both histories; absent: "Payment to" the name.',
          },
        },
        required: ['accountNumber', 'amount', 'name'],
      }),
    )
    .min(1, BULK_EMPTY_MESSAGE)
    .max(BULK_PAYMENTS_MAX, BULK_TOO_MANY_MESSAGE)
    .optional()
    .describe('The payments, 1 to 1,000, each to an account at this bank; or csv instead (one of the two).'),
  csv: z
    .string({ message: 'csv must be the text of a CSV file' })
    .max(BULK_CSV_CHARS_MAX, `The CSV file must be at most ${BULK_CSV_CHARS_MAX.toLocaleString('en-US')} characters`)
    .regex(MULTI_LINE_TEXT, controlCharactersMessage('The CSV file'))
    .meta({ description: 'A CSV file (header accountNumber,amount,name,description) instead of payments' })
    .optional(),
  paymentPin: ZPaymentPin,
  ...ZApprovalFields,
});

export const ZBulkPaymentRequest = ZBulkPaymentFields.refine((body) => (body.payments === undefined) !== (body.csv === undefined), {
  message: 'Send the payments or a CSV file (one of them)',
  path: ['payments'],
});
export type BulkPaymentRequest = z.input<typeof ZBulkPaymentRequest>;

/** The first call's answer: the batch is valid and its code is on its way. */
export const ZBulkCodeSent = z.object({
  step: z.literal('code').describe('Approve with the IMS code emailed now: the second call carries it as paymentPin, with the same rows.'),
  expiresAt: ZTimestamp.describe('The code works until then (5 minutes, 5 attempts).'),
  sentTo: z.string().describe("Where the code went: the customer's email, masked."),
  /** The batch's total, dollars. */
  amount: z.number().describe("The batch's total, in dollars."),
  payee: z.string().describe('The batch as the approval names it (its number of payments).'),
  /** Its rows whose name is not the account holder's (ADR 029); empty: every name matches. */
  payeeChecks: z.array(ZRowPayeeCheck).optional().describe("Its rows whose name is not the account holder's (ADR 029); empty: every name matches."),
  codesLeft: ZCodesLeft,
});
export type BulkCodeSent = z.infer<typeof ZBulkCodeSent>;

export const ZBulkResult = z
  .object({
    batchId: z.string(),
    count: z.number().int().describe('Payments made.'),
    /** Dollars. */
    total: z.number().describe('Dollars.'),
    results: z
      .array(
        z.object({
          row: z.number().int().describe('Counted from 1.'),
          entryId: z.string().describe("The row's journal entry."),
          transactionId: z
            .string()
            .optional()
            .describe(
              "The payer's line of it: the Transaction ID its history, statements and exports give it (absent only from a replayed answer stored before it was added).",
            ),
        }),
      )
      .describe('Each row, as it was paid.'),
  })
  .meta({ id: 'BulkResult' });
export type BulkResult = z.infer<typeof ZBulkResult>;

/** The first call's answer: the emailed code's step, or (a customer with a passkey) the passkey's (ADR 024). */
export const ZBulkApprovalStep = z.discriminatedUnion('step', [ZBulkCodeSent, ZPasskeyApprovalStep]);
export type BulkApprovalStep = z.infer<typeof ZBulkApprovalStep>;
export const ZBulkCodeAnswer = envelope(ZBulkApprovalStep);
export const ZBulkResultAnswer = envelope(ZBulkResult);

/** The template's example lines (the account numbers are the format's, not real customers'). */
export const BULK_TEMPLATE_ROWS = [
  { accountNumber: '1234567897', amount: '1250.00', name: 'Sam Taylor', description: 'Salary November' },
  { accountNumber: '7992739871', amount: '980.50', name: 'Jo Park', description: 'Salary November' },
];
