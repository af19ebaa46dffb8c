import type { AdminDashboard, AdminLedgerOverview, AdminLedgerVerification, DashboardDay } from '../../shared/contracts/admin';
import { audit } from '../audit/audit';
import type { ActorContext, AppContext } from '../context';
import type { DB } from '../db/database';
import { verifyBooks } from '../anchors/verify';
import type { Outcome } from '../lib/outcome';
import { bankDate, nextDate, previousDate, startOfBankDay } from '../lib/bank-time';
import * as repository from './repository';

// The back office's reports: the dashboard and the general ledger, with its verification.

export const SERIES_DAYS = 30;
/**
 * Journal kinds that count as transfers: payments to others (bulk payments included), wires, moves
 * between own accounts and standing orders' payments. The partial index the figures read names
 * the same list (migration 2026-11-25-59).
 */
export const TRANSFER_KINDS = ['transfer', 'wire', 'internal', 'standing_order'] as const;

type Totals = { count: number; volumeCents: number };

/**
 * Closed days never change (entries are append-only and their booking time is set when they are
 * posted), so their totals are read once per database and kept. Days are the bank's
 * (BANK_TIMEZONE), as statements and daily caps count them; a day counts as closed a few minutes
 * after its midnight, once no transaction that booked on it can still be committing.
 */
const closedDays = new WeakMap<DB, Map<string, Totals>>();
const CLOSED_AFTER_MS = 5 * 60 * 1000;

/**
 * The open days (today, and yesterday in the first minutes after midnight) the same way: what was
 * booked more than CLOSED_AFTER_MS ago is settled (committed or never will be), so it is summed
 * once and kept, and only the last few minutes are read on each request (at a million customers a
 * day holds tens of thousands of transfers). `until`: everything booked before it is in `totals`.
 */
const settledToday = new WeakMap<DB, { zone: string; until: number; totals: Map<string, Totals> }>();

const addTotals = (one: Totals | undefined, other: Totals | undefined): Totals => ({
  count: (one?.count ?? 0) + (other?.count ?? 0),
  volumeCents: (one?.volumeCents ?? 0) + (other?.volumeCents ?? 0),
});

async function openDayTotals(db: DB, zone: string, firstOpenDay: number, now: Date): Promise<Map<string, Totals>> {
  let settled = settledToday.get(db);
  // A new day, a clock set back (tests) or another zone: start again from the first open day.
  if (!settled || settled.zone !== zone || settled.until < firstOpenDay || settled.until > now.getTime()) {
    settled = { zone, until: firstOpenDay, totals: new Map() };
    settledToday.set(db, settled);
  }
  const settleUntil = now.getTime() - CLOSED_AFTER_MS;
  if (settled.until < settleUntil) {
    const base = settled;
    const since = base.until;
    const more = await repository.entryTotalsByDay(db, TRANSFER_KINDS, zone, new Date(since), new Date(settleUntil));
    // Another request may have settled meanwhile: only one adds each stretch of time.
    if (settledToday.get(db) === base && base.until === since) {
      for (const { date, ...day } of more) base.totals.set(date, addTotals(base.totals.get(date), day));
      base.until = settleUntil;
    }
  }
  const snapshot = settledToday.get(db) ?? settled;
  const { until } = snapshot;
  const totals = new Map(snapshot.totals);
  for (const { date, ...day } of await repository.entryTotalsByDay(db, TRANSFER_KINDS, zone, new Date(until)))
    totals.set(date, addTotals(totals.get(date), day));
  return totals;
}

/** One of the series' days: the bank's date and the instants it spans, [from, to). */
interface SeriesDay {
  date: string;
  from: Date;
  to: Date;
}

/** The bank's last SERIES_DAYS days, today last; each ends where the next begins (one midnight each). */
function seriesDays(zone: string, now: Date): SeriesDay[] {
  const dates = [bankDate(now, zone)];
  while (dates.length < SERIES_DAYS) dates.unshift(previousDate(dates[0] as string));
  const starts = [...dates, nextDate(dates[dates.length - 1] as string)].map((date) => startOfBankDay(date, zone));
  return dates.map((date, index) => ({ date, from: starts[index] as Date, to: starts[index + 1] as Date }));
}

async function transferSeries(db: DB, zone: string, now: Date, days: SeriesDay[]): Promise<DashboardDay[]> {
  const cache = closedDays.get(db) ?? new Map<string, Totals>();
  closedDays.set(db, cache);
  const cacheKey = (date: string) => `${zone} ${date}`;

  const isClosed = (day: SeriesDay) => day.to.getTime() + CLOSED_AFTER_MS <= now.getTime();
  const missing = days.filter((day) => isClosed(day) && !cache.has(cacheKey(day.date)));
  if (missing.length > 0) {
    const totals = await repository.entryTotalsByDay(db, TRANSFER_KINDS, zone, (missing[0] as SeriesDay).from, (missing.at(-1) as SeriesDay).to);
    const found = new Map(totals.map(({ date, ...day }) => [date, day]));
    for (const day of missing) cache.set(cacheKey(day.date), found.get(day.date) ?? { count: 0, volumeCents: 0 });
  }
  // Today (and yesterday during the first minutes after midnight): settled totals plus the last minutes.
  const openDays = days.filter((day) => !isClosed(day));
  const live = openDays.length > 0 ? await openDayTotals(db, zone, (openDays[0] as SeriesDay).from.getTime(), now) : new Map<string, Totals>();
  return days.map(({ date }) => ({ date, ...(live.get(date) ?? cache.get(cacheKey(date)) ?? { count: 0, volumeCents: 0 }) }));
}

/** The figures a back office starts its day with. */
export async function getDashboard(ctx: AppContext): Promise<AdminDashboard> {
  const zone = ctx.config.timeZone;
  const now = ctx.clock.now();
  const days = seriesDays(zone, now);
  const [figures, transferVolume] = await Promise.all([repository.dashboardFigures(ctx.db), transferSeries(ctx.db, zone, now, days)]);
  const today = transferVolume[transferVolume.length - 1] ?? { count: 0, volumeCents: 0 };
  const todaySpan = days[days.length - 1] as SeriesDay;
  return {
    customers: figures.customers,
    depositsHeldCents: figures.depositsHeldCents,
    transfersToday: { count: today.count, volumeCents: today.volumeCents, from: todaySpan.from.toISOString(), to: todaySpan.to.toISOString() },
    timeZone: zone,
    pendingKycReviews: figures.pendingKyc,
    pendingLoanApplications: figures.pendingLoans,
    newContactMessages: figures.newMessages,
    transferVolume,
  };
}

/** The general ledger at a glance: a handful of rows, whatever the number of customers. */
export async function getLedgerOverview(ctx: AppContext): Promise<AdminLedgerOverview> {
  const snapshot = await repository.generalLedgerSnapshot(ctx.db);
  return {
    ...snapshot,
    totalCents: snapshot.customerBalancesCents + snapshot.bankAccounts.reduce((sum, account) => sum + account.balanceCents, 0),
  };
}

/**
 * Recomputes the ledger chain and every balance, the audit chain, and every anchor of ANCHOR_FILE
 * (as `npm run ledger:verify` does, with the same words) and records who ran it.
 */
export async function runLedgerVerification(ctx: ActorContext): Promise<Outcome<AdminLedgerVerification>> {
  const { ok, ledger, audit: auditTrail, anchors, lines } = await verifyBooks(ctx.db, ctx.config);
  const problem = !ledger.ok ? ledger.problem : !auditTrail.ok ? auditTrail.problem : !anchors.ok ? anchors.problem : null;
  const verification: AdminLedgerVerification = {
    ok,
    entries: ledger.entries,
    problem,
    seq: ledger.ok ? null : ledger.seq,
    auditRecords: auditTrail.recomputed.length,
    anchors: { count: anchors.count, newestAt: anchors.ok ? anchors.newestAt : null, failingSeq: anchors.ok ? null : anchors.seq },
    message: lines.join('\n'),
    checkedAt: ctx.clock.now().toISOString(),
  };
  await audit(ctx.db, ctx.actor, {
    action: 'ledger.verify',
    targetType: 'ledger',
    after: { ok, entries: verification.entries, problem, seq: verification.seq, anchors: anchors.count },
  });
  return { data: verification, message: verification.message };
}
