import { z } from 'zod';
import { envelope, isoDate, pageParam, pageSizeParam, ZTimestamp } from './common';
import { ACCOUNT_KINDS } from './journal';

// End of day (issue 15): the trial balance stored for each closed bank day (BANK_TIMEZONE), shown
// on /admin/reports and exported as CSV and PDF. Amounts are integer cents. A posting that raises an
// account's balance is a credit to it, one that lowers it a debit (as customers' histories show
// them), so each line reads opening - debits + credits = closing.

export const TRIAL_BALANCE_PAGE_SIZE_DEFAULT = 100;
export const TRIAL_BALANCE_PAGE_SIZE_MAX = 500;

const ZReportDate = isoDate('date').describe('A closed bank day (YYYY-MM-DD, BANK_TIMEZONE): GET /api/admin/reports/days gives the range.');

export const ZTrialBalanceQuery = z.object({
  date: ZReportDate,
  page: pageParam('The page of lines to answer, counted from 1.'),
  pageSize: pageSizeParam({ max: TRIAL_BALANCE_PAGE_SIZE_MAX, fallback: TRIAL_BALANCE_PAGE_SIZE_DEFAULT, describe: 'Lines per page.' }),
});
export type TrialBalanceQuery = z.input<typeof ZTrialBalanceQuery>;

export const ZTrialBalanceExportQuery = z.object({ date: ZReportDate });

export const ZTrialBalanceLine = z.object({
  accountId: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  name: z.string(),
  number: z.string().nullable(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  openingCents: z.number().int().describe('The balance when the day began, in integer cents.'),
  debitsCents: z.number().int().describe("The day's postings that lowered the balance, in integer cents (positive)."),
  creditsCents: z.number().int().describe("The day's postings that raised it, in integer cents."),
  closingCents: z.number().int().describe('The balance when the day ended: opening - debits + credits.'),
});
export type TrialBalanceLineDto = z.infer<typeof ZTrialBalanceLine>;

const ZTotals = z.object({ openingCents: z.number().int(), debitsCents: z.number().int(), creditsCents: z.number().int(), closingCents: z.number().int() });

export const ZTrialBalance = z
  .object({
    date: z.string().describe('The bank day, YYYY-MM-DD.'),
    timeZone: z.string().describe('BANK_TIMEZONE, an IANA name.'),
    /** The bank day's booking times: [startsAt, endsAt). */
    startsAt: ZTimestamp,
    endsAt: ZTimestamp,
    /** When the end-of-day job stored it. */
    createdAt: ZTimestamp,
    entries: z.number().int(),
    /** The accounts that moved that day (the lines). */
    accountsMoved: z.number().int(),
    /** Every other account, in one row: its balance did not change that day. */
    unchanged: z
      .object({ accounts: z.number().int(), balanceCents: z.number().int().describe('Their balances summed, in integer cents.') })
      .describe('Every other account, in one row: its balance did not change that day.'),
    /** The lines' totals; with the unchanged row, opening and closing each total zero, and debits equal credits. */
    totals: ZTotals.describe("The lines' totals in integer cents; with the unchanged row, opening and closing each total zero, and debits equal credits."),
    lines: z.array(ZTrialBalanceLine),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** The number of lines (= accountsMoved). */
    total: z.number().int(),
  })
  .meta({ id: 'TrialBalance' });
export type TrialBalanceDto = z.infer<typeof ZTrialBalance>;

/** The closed days there are reports for. */
export const ZReportDays = z.object({
  first: z.string().nullable().describe('The first closed day with a report (YYYY-MM-DD); null: none yet.'),
  last: z.string().nullable().describe('The last one; null: none yet.'),
  timeZone: z.string().describe('BANK_TIMEZONE, an IANA name.'),
});
export type ReportDays = z.infer<typeof ZReportDays>;

export const ZTrialBalanceAnswer = envelope(ZTrialBalance);
export const ZReportDaysAnswer = envelope(ZReportDays);
