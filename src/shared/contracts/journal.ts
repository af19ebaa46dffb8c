import { ZApproval } from './approvals';
import { z } from 'zod';
import { EMAIL_LENGTH_MAX } from '../limits';
import { AMOUNT_CENTS_MAX, amountBoundCents } from '../money';
import { envelope, isoDate, optionalText, pageSizeParam, ZTimestamp, ZUuid } from './common';
import { ENTRY_KINDS } from './transactions';

// The whole journal (issue 15): every entry on every account, the bank's own included; one entry
// with all it touches; the ledger's accounts; and any account's balance at a past date. Staff only.
// Amounts in answers are integer cents (`...Cents`); amounts in a query are decimal dollars, as typed.

export const JOURNAL_PAGE_SIZE_DEFAULT = 25;
export const JOURNAL_PAGE_SIZE_MAX = 100;
/** The journal is paged by key: an entry's seq, the order entries were applied in. */
const SEQ_MAX = 9_007_199_254_740_991;

export const ACCOUNT_KINDS = ['savings', 'checking', 'bank_cash', 'bank_operations', 'external_clearing', 'loans_receivable', 'interest_income'] as const;
export type AccountKindName = (typeof ACCOUNT_KINDS)[number];

const cursor = (name: string) =>
  z
    .string({ message: `${name} must be an entry position` })
    .regex(/^[1-9][0-9]{0,15}$/, `${name} must be an entry position (a whole number)`)
    .transform(Number)
    .refine((value) => value <= SEQ_MAX, `${name} is too large`)
    .optional();

/** A dollar bound of the amount range (empty means none), up to ten times a payment's largest amount, as balance corrections may be. */
const amountBound = (label: string, description: string) => amountBoundCents(label, AMOUNT_CENTS_MAX * 10, `${description}, in decimal dollars, e.g. 120.50`);

const instant = (label: string) =>
  z
    .string({ message: `${label} must be a date and time` })
    .max(40, `${label} must be a date and time (ISO 8601)`)
    .meta({ format: 'date-time' })
    .pipe(z.iso.datetime({ offset: true, message: `${label} must be a date and time with its offset, e.g. 2026-11-24T09:30:00Z` }))
    .optional();

export const ZJournalQuery = z
  .object({
    kind: z
      .enum(ENTRY_KINDS, { message: `kind must be one of ${ENTRY_KINDS.join(', ')}` })
      .optional()
      .describe('Only entries of this kind.'),
    /** Entries touching any account of this customer: a user id, an email or a 10-digit account number. */
    customer: optionalText('customer', EMAIL_LENGTH_MAX).describe(
      'Only entries touching an account of this customer: a user _id, an email or a 10-digit account number.',
    ),
    /** Entries touching this ledger account (a bank account or a customer's). */
    account: z
      .uuid('account is not a valid account id')
      .optional()
      .describe("Only entries touching this ledger account (its id: a bank account or a customer's)."),
    /** Booking time range [bookedFrom, bookedTo). */
    bookedFrom: instant('bookedFrom').describe('Booked at or after this time (ISO 8601 with its offset, e.g. 2026-11-24T09:30:00Z).'),
    bookedTo: instant('bookedTo').describe('Booked before this time (ISO 8601 with its offset).'),
    /** Value date range, both days included. */
    valueFrom: isoDate('valueFrom').optional().describe('Value dates from this day (YYYY-MM-DD), included.'),
    valueTo: isoDate('valueTo').optional().describe('Value dates up to this day (YYYY-MM-DD), included.'),
    /** The entry's amount (what it moved), dollars, both bounds included. */
    amountMin: amountBound('amountMin', 'Smallest amount the entry moved (included)'),
    amountMax: amountBound('amountMax', 'Largest amount the entry moved (included)'),
    /** The next page of older entries: those applied before this position. */
    older: cursor('older').describe('The next page of older entries: those applied before this position (olderCursor).'),
    /** The page of newer entries: those applied after this position. */
    newer: cursor('newer').describe('The page of newer entries: those applied after this position (newerCursor). Not with older.'),
    pageSize: pageSizeParam({ max: JOURNAL_PAGE_SIZE_MAX, fallback: JOURNAL_PAGE_SIZE_DEFAULT, describe: 'Entries per page.' }),
  })
  .superRefine((query, ctx) => {
    const wrongOrder = (first: string, second: string, message: string) => ctx.addIssue({ code: 'custom', path: [second], message: `${message} (${first})` });
    if (query.bookedFrom && query.bookedTo && Date.parse(query.bookedFrom) >= Date.parse(query.bookedTo))
      wrongOrder('bookedFrom', 'bookedTo', 'bookedTo must be after bookedFrom');
    if (query.valueFrom && query.valueTo && query.valueFrom > query.valueTo) wrongOrder('valueFrom', 'valueTo', 'valueTo must not be before valueFrom');
    if (query.amountMin !== undefined && query.amountMax !== undefined && query.amountMin > query.amountMax)
      wrongOrder('amountMin', 'amountMax', 'amountMax must not be below amountMin');
    if (query.older !== undefined && query.newer !== undefined) ctx.addIssue({ code: 'custom', path: ['newer'], message: 'Give older or newer, not both' });
  });
export type JournalQuery = z.input<typeof ZJournalQuery>;

/** One account as the back office names it. */
export const ZLedgerAccount = z
  .object({
    id: z.string(),
    kind: z.enum(ACCOUNT_KINDS).describe("A customer's savings or checking, or one of the bank's own accounts."),
    /** The bank account's name, or Savings / Checking. */
    name: z.string().describe("The bank account's name, or Savings / Checking."),
    /** The customer's 10-digit number; null for the bank's own accounts. */
    number: z.string().nullable().describe("The customer's 10-digit number; null for the bank's own accounts."),
    ownerId: z.string().nullable().describe("The customer's user _id; null for the bank's own accounts."),
    /** The customer's name; null for the bank's own accounts. */
    ownerName: z.string().nullable().describe("The customer's name; null for the bank's own accounts."),
    balanceCents: z.number().int().describe('The balance now, in integer cents.'),
  })
  .meta({ id: 'LedgerAccount' });
export type LedgerAccountDto = z.infer<typeof ZLedgerAccount>;

/** One line of an entry: what it did to one account. Positive credits the account (raises its balance). */
export const ZJournalPosting = z.object({
  accountId: z.string(),
  accountKind: z.enum(ACCOUNT_KINDS),
  accountName: z.string(),
  accountNumber: z.string().nullable(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  amountCents: z.number().int().describe('Integer cents: positive credits the account (raises its balance), negative debits it.'),
  /** The account's balance right after this posting. */
  balanceAfterCents: z.number().int().describe("The account's balance right after this posting, in integer cents."),
  memo: z.string().nullable(),
  counterparty: z.string().nullable(),
});
export type JournalPostingDto = z.infer<typeof ZJournalPosting>;

export const ZJournalEntry = z
  .object({
    id: z.string(),
    /** The order the entry was applied in (the page key). */
    seq: z.number().int().describe('The order the entry was applied in (the page key).'),
    kind: z.enum(ENTRY_KINDS),
    /** As posted, or as a staff note corrected it since (the entry itself never changes). */
    description: z.string().describe('As posted, or as a staff note corrected it since (the entry itself never changes).'),
    bookedAt: ZTimestamp,
    valueDate: z.string().describe('YYYY-MM-DD.'),
    /** What the entry moved: the sum of its positive postings. */
    amountCents: z.number().int().describe('What the entry moved, in integer cents: the sum of its positive postings.'),
    authorId: z.string().nullable(),
    authorEmail: z.string().nullable(),
    reversalOf: z.string().nullable(),
    reversedBy: z.string().nullable(),
    postings: z.array(ZJournalPosting),
  })
  .meta({ id: 'JournalEntry' });
export type JournalEntryDto = z.infer<typeof ZJournalEntry>;

export const ZJournalPage = z.object({
  items: z.array(ZJournalEntry),
  /** `older=` for the next page, null on the oldest page. */
  olderCursor: z.string().nullable().describe('older= for the next page; null on the oldest page.'),
  /** `newer=` for the previous page, null on the newest page. */
  newerCursor: z.string().nullable().describe('newer= for the previous page; null on the newest page.'),
  pageSize: z.number().int().describe('Entries per page.'),
  /**
   * With a customer filter: whether it named a customer (false: no customer has that id, email or
   * account number, so the empty page says nothing about their entries). Absent without one.
   */
  customerFound: z.boolean().optional(),
});
export type JournalPage = z.infer<typeof ZJournalPage>;

const ZEntryRef = z.object({ id: z.string(), description: z.string(), bookedAt: ZTimestamp });

export const ZJournalEntryDetail = ZJournalEntry.extend({
  /** The four-eyes request this entry carried out (ADR 023): who asked and who approved; null for an entry made without one. */
  approval: ZApproval.nullable(),
  /** The description as posted (a staff note may correct how it reads: `description`). */
  postedDescription: z.string(),
  /** The staff member's reason for a staff entry, a correction or a reversal. */
  reason: z.string().nullable(),
  /** Its place on the hash chain; null while the sealer has not chained it yet. */
  chain: z
    .object({
      position: z.number().int(),
      hash: z.string(),
      prevHash: z.string(),
      /** The entry before it on the chain (whose hash prevHash is); null for the first entry. */
      prevEntryId: z.string().nullable(),
      sealedAt: ZTimestamp,
    })
    .nullable(),
  /** The entry this one reverses, and the entry that reverses this one. */
  reverses: ZEntryRef.nullable(),
  reversal: ZEntryRef.nullable(),
  audit: z.array(
    z.object({
      id: z.string(),
      at: ZTimestamp,
      actorEmail: z.string().nullable(),
      action: z.string(),
      reason: z.string().nullable(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
  descriptionNotes: z.array(z.object({ description: z.string(), at: ZTimestamp, authorId: z.string().nullable() })),
}).meta({ id: 'JournalEntryDetail' });
export type JournalEntryDetailDto = z.infer<typeof ZJournalEntryDetail>;

export const ZAccountListQuery = z.object({
  /** A customer's accounts; without it, the bank's own accounts. */
  ownerId: z.uuid('ownerId is not a valid id').optional().describe("A customer's user _id: their accounts; absent: the bank's own accounts."),
});

export const ZBalanceAtQuery = z.object({ date: isoDate('date').describe('The bank day (YYYY-MM-DD, BANK_TIMEZONE) at whose end the balance is taken.') });

/**
 * An account's balance at the end of a bank day (BANK_TIMEZONE), by booking time: the sum of its
 * postings booked before the day ended. Value dates do not move it.
 */
export const ZBalanceAt = z
  .object({
    accountId: z.string(),
    date: z.string().describe('YYYY-MM-DD.'),
    /** The instant the bank day ended: postings booked before it count. */
    endsAt: ZTimestamp.describe('The instant the bank day ended: postings booked before it count.'),
    timeZone: z.string().describe('BANK_TIMEZONE, an IANA name.'),
    balanceCents: z.number().int().describe('In integer cents.'),
  })
  .meta({ id: 'BalanceAt' });
export type BalanceAtDto = z.infer<typeof ZBalanceAt>;

export const ZAccountParams = z.object({ id: ZUuid.describe("The ledger account's id, as GET /api/admin/accounts lists it.") });
export const ZJournalPageAnswer = envelope(ZJournalPage);
export const ZJournalEntryAnswer = envelope(ZJournalEntryDetail);
export const ZLedgerAccountsAnswer = envelope(z.array(ZLedgerAccount));
export const ZBalanceAtAnswer = envelope(ZBalanceAt);
