import { z } from 'zod';
import { addDays, isRealDate } from '../dates';
import { DATE_MAX, DATE_MIN, UPLOAD_BYTES_MAX } from '../limits';
import { envelope, isoDate, ZTimestamp } from './common';
import { CUSTOMER_ACCOUNTS } from './transactions';

// Statements anyone can verify, and exports (issue 14). The signed message is documented in
// docs/decisions/015-verifiable-statements.md and built by src/server/statements/signature.ts.

/** A statement holds at most this many lines; a busier month is refused (the CSV and OFX exports carry any month). */
export const STATEMENT_LINES_MAX = 5_000;
/** An export covers at most this many days (a year, leap years included). */
export const EXPORT_RANGE_DAYS_MAX = 366;
/** An export carries at most this many lines; a busier range is refused with a shorter one to ask for. */
export const EXPORT_LINES_MAX = 10_000;
/** The largest file the verifier reads (the uploads' limit): every statement the bank issues is smaller (asserted when it is made). */
export const STATEMENT_FILE_BYTES_MAX = UPLOAD_BYTES_MAX;
/** Uploads to the verifier per minute from one address. */
export const STATEMENT_VERIFY_PER_MINUTE = 10;

export const EXPORT_FORMATS = ['csv', 'ofx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const accountKind = z.enum(CUSTOMER_ACCOUNTS, { message: 'account must be savings or checking' });

/** A calendar month written YYYY-MM, within the dates the bank accepts. */
export const ZStatementMonth = z
  .string({ message: 'The month must be written YYYY-MM' })
  .regex(MONTH_PATTERN, 'The month must be written YYYY-MM')
  .refine(
    (month) => month >= DATE_MIN.slice(0, 7) && month <= DATE_MAX.slice(0, 7),
    `The month must be between ${DATE_MIN.slice(0, 7)} and ${DATE_MAX.slice(0, 7)}`,
  );

/** `/statements/{month}.pdf` */
export const ZStatementParams = z.object({
  month: ZStatementMonth.describe("YYYY-MM in the bank's calendar (BANK_TIMEZONE): a closed month's signed statement, or the current month's interim one."),
});
export const ZStatementQuery = z.object({ account: accountKind.describe('The account the statement is for.') });

export const ZStatementSummary = z
  .object({
    month: z.string().describe("YYYY-MM in the bank's calendar (BANK_TIMEZONE)."),
    account: z.enum(CUSTOMER_ACCOUNTS),
    /** When the statement was made and signed; null while a closed month's statement has not been made yet (its first download makes it). */
    issuedAt: ZTimestamp.nullable(),
  })
  .meta({ id: 'StatementSummary' });
export type StatementSummary = z.infer<typeof ZStatementSummary>;
export const ZStatementListAnswer = envelope(z.array(ZStatementSummary));

/** The bank's calendar as statements and exports use it (BANK_TIMEZONE): the month an interim statement covers. */
export const ZStatementCalendar = z
  .object({
    currentMonth: z.string().describe('YYYY-MM: the month an interim statement covers.'),
    today: z.string().describe("YYYY-MM-DD: the bank's date now."),
    timeZone: z.string().describe('BANK_TIMEZONE, an IANA name such as America/New_York.'),
  })
  .meta({ id: 'StatementCalendar' });
export type StatementCalendar = z.infer<typeof ZStatementCalendar>;
export const ZStatementCalendarAnswer = envelope(ZStatementCalendar);

export const ZPublicKey = z
  .object({
    keyId: z.string().describe('Names the key in a verified statement (keyId).'),
    algorithm: z.literal('Ed25519'),
    /** SPKI PEM. */
    publicKey: z.string().describe('SPKI PEM.'),
    /** When it first signed something; null for the current key before its first signature. */
    firstUsedAt: ZTimestamp.nullable(),
    /** The key the bank signs with now. */
    current: z.boolean(),
  })
  .meta({ id: 'StatementPublicKey' });
export type PublicKeyDto = z.infer<typeof ZPublicKey>;
export const ZPublicKeysAnswer = envelope(z.array(ZPublicKey));

export const ZVerifiedStatement = z
  .object({
    genuine: z.literal(true).describe('The bytes are exactly a statement the bank issued.'),
    statementId: z.string(),
    customerName: z.string(),
    accountNumberMasked: z.string().describe('The last four digits after asterisks.'),
    account: z.enum(CUSTOMER_ACCOUNTS),
    period: z.string().describe('The month, YYYY-MM.'),
    issuedAt: ZTimestamp,
    keyId: z.string(),
    /** Base64 Ed25519 signature of the signed message (see the public key's documentation). */
    signature: z.string(),
    /** SHA-256 (hex) of the uploaded bytes. */
    sha256: z.string(),
    ledgerChainPosition: z.number().int().describe("The hash chain's position of the statement's last entry."),
    ledgerChainHash: z.string().describe('The hash (hex) at that position.'),
  })
  .meta({ id: 'VerifiedStatement' });
export type VerifiedStatement = z.infer<typeof ZVerifiedStatement>;
export const ZVerifyAnswer = envelope(
  z.union([
    z.object({
      genuine: z.literal(false),
      interim: z
        .literal(true)
        .optional()
        .describe(
          'Present when the file calls itself an interim statement of this bank: those are not signed or kept, so none can be verified, changed or not.',
        ),
    }),
    ZVerifiedStatement,
  ]),
);
export type VerifyResult = { genuine: false; interim?: true } | VerifiedStatement;

export const STATEMENT_FILE_FIELD = 'file';
/** POST /statements/verify: one file, the statement as the bank issued it. */
export const STATEMENT_VERIFY_FORM = {
  files: { [STATEMENT_FILE_FIELD]: 'The statement PDF, exactly as downloaded from the bank' } as Record<typeof STATEMENT_FILE_FIELD, string>,
  missing: { message: 'Please choose the statement PDF to check.', field: 'No file selected' },
};

export const ZExportQuery = z
  .object({
    format: z.enum(EXPORT_FORMATS, { message: 'format must be csv or ofx' }).describe('The file: csv, or ofx for accounting software.'),
    account: accountKind.describe('The account to export.'),
    from: isoDate('from').describe("The first day (YYYY-MM-DD, the bank's calendar) whose bookings are exported."),
    to: isoDate('to').describe('The last day exported, included: at most 366 days from from.'),
  })
  .superRefine((query, ctx) => {
    // zod runs this even when a date failed its own checks: compare real dates only.
    if (![query.from, query.to].every((date) => typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && isRealDate(date))) return;
    if (query.from > query.to) ctx.addIssue({ code: 'custom', message: 'The start date must be on or before the end date', path: ['from'] });
    else if (addDays(query.from, EXPORT_RANGE_DAYS_MAX - 1) < query.to)
      ctx.addIssue({ code: 'custom', message: `An export covers at most ${EXPORT_RANGE_DAYS_MAX} days`, path: ['to'] });
  });
export type ExportQuery = z.output<typeof ZExportQuery>;

/** The last four digits after asterisks: what the verifier tells an uploader about the account. */
export const maskAccountNumber = (number: string) => `${'*'.repeat(Math.max(0, number.length - 4))}${number.slice(-4)}`;
