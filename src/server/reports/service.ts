import type { BalanceAtDto } from '../../shared/contracts/journal';
import type { ReportDays, TrialBalanceDto, TrialBalanceLineDto, TrialBalanceQuery } from '../../shared/contracts/reports';
import { addDays } from '../../shared/dates';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { inTransaction } from '../db/transaction';
import { findAccount } from '../journal/repository';
import { bankDate, bankDayRange, nextDate } from '../lib/bank-time';
import { assert, badRequest, notFound } from '../lib/errors';
import * as repository from './repository';

// End of day (issue 15, docs/decisions/017-back-office-books.md). After each bank day ends (in
// BANK_TIMEZONE) a job stores its trial balance: every account that moved, with its opening
// balance, debits, credits and closing balance, and one row for all the others. Days are closed in
// order and never twice; a run after downtime closes every day it missed. Any account's balance at
// the end of a past day comes from the same books.

/**
 * A day is closed this long after it ends: an entry's booking time is read from the clock just
 * before it commits, so one booked at 23:59:59.999 may still be committing at midnight.
 */
export const CLOSE_AFTER_MS = 5 * 60 * 1000;
/** Days closed in one run at most (the next run goes on): a first run over years of history stays a bounded job. */
export const CLOSE_DAYS_PER_RUN_MAX = 400;

export const CLOSE_DAYS_TASK = 'close_days';

/** The newest bank day that may be closed at `now`. */
export function lastClosableDay(now: Date, zone: string): string {
  return addDays(bankDate(new Date(now.getTime() - CLOSE_AFTER_MS), zone), -1);
}

/** Every account summed at the end of a closed day: its lines' closing total and the unchanged accounts. */
async function closingOfEveryAccount(trx: DB, day: string): Promise<number> {
  const previous = await repository.trialBalanceHeader(trx, day);
  assert(previous, 'days are closed in order, without a gap');
  return Number(previous.closing_total) + Number(previous.unchanged_balance);
}

/**
 * Closes one day inside the caller's transaction: the day's movements per account, their opening
 * balances, and the totals, asserted to balance before anything is stored.
 */
async function closeDay(trx: DB, ctx: AppContext, day: string, first: boolean): Promise<void> {
  const zone = ctx.config.timeZone;
  const { from, to } = bankDayRange(day, zone);
  const { accounts, entries } = await repository.movements(trx, from, to);
  const openings = await repository.openingBalances(
    trx,
    day,
    from,
    accounts.map((account) => account.account_id),
  );
  const lines = accounts.map((movement) => {
    const opening = openings.get(movement.account_id);
    assert(opening !== undefined, 'every account that moved has an opening balance');
    const line = { account_id: movement.account_id, opening, debits: Number(movement.debits), credits: Number(movement.credits), closing: 0 };
    line.closing = line.opening - line.debits + line.credits;
    return line;
  });
  const sum = (pick: (line: (typeof lines)[number]) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const totals = {
    opening: sum((line) => line.opening),
    debits: sum((line) => line.debits),
    credits: sum((line) => line.credits),
    closing: sum((line) => line.closing),
  };
  // Every account summed as the day began: zero under double entry. The first day closed reads it
  // from every posting before it; later days from the day before, which was asserted in turn.
  const everyAccountAtStart = first ? await repository.everyPostingBefore(trx, from) : await closingOfEveryAccount(trx, addDays(day, -1));
  const unchangedBalance = everyAccountAtStart - totals.opening;
  // A trial balance balances: debits equal credits, and the opening and closing columns (with the
  // accounts that did not move) each total zero. Anything else is a bug or a broken ledger: stop.
  assert(totals.debits === totals.credits, `trial balance of ${day}: debits equal credits`);
  assert(totals.opening + unchangedBalance === 0, `trial balance of ${day}: the opening balances total zero`);
  assert(totals.closing + unchangedBalance === 0, `trial balance of ${day}: the closing balances total zero`);
  const accountsThen = await repository.accountsOpenedBefore(trx, to);
  await repository.insertTrialBalance(
    trx,
    {
      day,
      starts_at: from,
      ends_at: to,
      time_zone: zone,
      accounts_moved: lines.length,
      opening_total: totals.opening,
      debits_total: totals.debits,
      credits_total: totals.credits,
      closing_total: totals.closing,
      unchanged_accounts: Math.max(0, accountsThen - lines.length),
      unchanged_balance: unchangedBalance,
      entries,
    },
    lines,
  );
}

/**
 * The end-of-day job: closes every bank day that has ended and is not closed yet, oldest first,
 * each in its own transaction (one closer at a time across every process: an advisory lock).
 * Idempotent: run twice, or by two runners, it closes each day once. Answers the days it closed.
 */
export async function closeEndedDays(ctx: AppContext): Promise<string[]> {
  const zone = ctx.config.timeZone;
  const last = lastClosableDay(ctx.clock.now(), zone);
  const closed: string[] = [];
  for (let count = 0; count < CLOSE_DAYS_PER_RUN_MAX; count += 1) {
    const day = await inTransaction(ctx.db, async (trx) => {
      if (!(await repository.takeCloseLock(trx))) return null;
      const range = await repository.closedDayRange(trx);
      let next: string;
      if (range.last) next = nextDate(range.last);
      else {
        // The bank's first day is the day of its first entry: nothing before it to close.
        const firstBooking = await repository.firstBookingTime(trx);
        if (!firstBooking) return null;
        next = bankDate(firstBooking, zone);
      }
      if (next > last) return null;
      await closeDay(trx, ctx, next, range.last === null);
      return next;
    });
    if (!day) break;
    closed.push(day);
  }
  if (closed.length > 0) ctx.log.info({ days: closed.length, first: closed[0], last: closed[closed.length - 1] }, 'end of day: trial balances stored');
  return closed;
}

// ---------------------------------------------------------------- the reports

const DAY_NOT_CLOSED = (date: string) =>
  notFound(`There is no trial balance for ${date} yet: a day's trial balance is made shortly after it ends, and only for days since the bank's first entry.`);

const ownerName = (line: { first_name: string | null; last_name: string | null }) =>
  line.first_name === null ? null : `${line.first_name} ${line.last_name ?? ''}`.trim();

export function toLineDto(line: repository.NamedLine): TrialBalanceLineDto {
  return {
    accountId: line.account_id,
    kind: line.kind,
    name: line.name,
    number: line.number,
    ownerId: line.owner_id,
    ownerName: ownerName(line),
    openingCents: Number(line.opening),
    debitsCents: Number(line.debits),
    creditsCents: Number(line.credits),
    closingCents: Number(line.closing),
  };
}

export type TrialBalanceSummary = Omit<TrialBalanceDto, 'lines' | 'page' | 'pageSize' | 'total'>;

function toSummary(header: repository.TrialBalanceHeader): TrialBalanceSummary {
  return {
    date: header.day,
    timeZone: header.time_zone,
    startsAt: new Date(header.starts_at).toISOString(),
    endsAt: new Date(header.ends_at).toISOString(),
    createdAt: new Date(header.created_at).toISOString(),
    entries: header.entries,
    accountsMoved: header.accounts_moved,
    unchanged: { accounts: header.unchanged_accounts, balanceCents: Number(header.unchanged_balance) },
    totals: {
      openingCents: Number(header.opening_total),
      debitsCents: Number(header.debits_total),
      creditsCents: Number(header.credits_total),
      closingCents: Number(header.closing_total),
    },
  };
}

export async function trialBalanceSummary(ctx: AppContext, date: string): Promise<TrialBalanceSummary> {
  const header = await repository.trialBalanceHeader(ctx.db, date);
  if (!header) throw DAY_NOT_CLOSED(date);
  return toSummary(header);
}

/** GET /admin/reports/trial-balance: one closed day, a page of its lines. */
export async function trialBalance(
  ctx: AppContext,
  query: Required<Pick<TrialBalanceQuery, 'date'>> & { page: number; pageSize: number },
): Promise<TrialBalanceDto> {
  const found = await repository.trialBalancePage(ctx.db, query.date, { after: (query.page - 1) * query.pageSize, limit: query.pageSize });
  if (!found) throw DAY_NOT_CLOSED(query.date);
  const summary = toSummary(found.header);
  return { ...summary, lines: found.lines.map(toLineDto), page: query.page, pageSize: query.pageSize, total: summary.accountsMoved };
}

const EXPORT_CHUNK = 2000;

/** Every line of a closed day, in the report's order, read in chunks (a day may have many). */
export async function* allLines(ctx: AppContext, date: string): AsyncGenerator<TrialBalanceLineDto> {
  let after = 0;
  for (;;) {
    const chunk = await repository.trialBalanceLines(ctx.db, date, { after, limit: EXPORT_CHUNK });
    for (const line of chunk) yield toLineDto(line);
    if (chunk.length < EXPORT_CHUNK) return;
    after += EXPORT_CHUNK;
  }
}

/** GET /admin/reports/days: the first and newest closed days. */
export async function reportDays(ctx: AppContext): Promise<ReportDays> {
  const range = await repository.closedDayRange(ctx.db);
  return { first: range.first, last: range.last, timeZone: ctx.config.timeZone };
}

// ---------------------------------------------------------------- balance at a past date

/**
 * An account's balance at the end of a bank day (BANK_TIMEZONE): the sum of its postings booked
 * before the day ended. Value dates do not move it: a back-dated staff entry counts from when it was
 * booked. Read from the stored trial balances where they cover the day (an account's newest closing
 * on or before it), and from the postings beyond them.
 */
export async function balanceAt(ctx: AppContext, accountId: string, date: string): Promise<BalanceAtDto> {
  const zone = ctx.config.timeZone;
  const today = bankDate(ctx.clock.now(), zone);
  if (date >= today) throw badRequest(`Choose a day that has ended: before ${today} (${zone}).`, { date: 'Not ended yet' });
  if (!(await findAccount(ctx.db, accountId))) throw notFound('Account not found');
  const { to } = bankDayRange(date, zone);
  const answer = (balanceCents: number): BalanceAtDto => ({ accountId, date, endsAt: to.toISOString(), timeZone: zone, balanceCents });
  const closed = await repository.closedDayRange(ctx.db);
  if (!closed.first || !closed.last || date < closed.first) return answer(await repository.accountPostingsBefore(ctx.db, accountId, to));
  const covered = date <= closed.last ? date : closed.last;
  let balance: number;
  const line = await repository.lineOnOrBefore(ctx.db, accountId, covered);
  if (line) balance = Number(line.closing);
  else {
    // No movement from the first closed day to this one: the next line's opening, or (none) every posting before.
    const after = await repository.lineAfter(ctx.db, accountId, covered);
    balance = after ? Number(after.opening) : await repository.accountPostingsBefore(ctx.db, accountId, bankDayRange(covered, zone).to);
  }
  if (covered < date) balance += await repository.accountPostingsBetween(ctx.db, accountId, bankDayRange(covered, zone).to, to);
  return answer(balance);
}
