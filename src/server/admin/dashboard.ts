import { sql } from 'kysely';
import type { AdminDashboard, DashboardDay } from '../../shared/contracts/admin';
import type { DB } from '../db/database';
import { tableExists } from './optional-tables';

export const SERIES_DAYS = 30;
/** Journal kinds that count as transfers: payments to others, wires, and moves between own accounts. */
export const TRANSFER_KINDS = ['transfer', 'wire', 'internal'] as const;

const DAY_MS = 86_400_000;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Closed days never change (entries are append-only and their booking time is set when they are
 * posted), so their totals are read once per database and kept. A day counts as closed a few
 * minutes after midnight UTC, once no transaction that booked on it can still be committing.
 */
const closedDays = new WeakMap<DB, Map<string, { count: number; volumeCents: number }>>();
const CLOSED_AFTER_MS = 5 * 60 * 1000;

async function transferSeries(db: DB, now: Date): Promise<DashboardDay[]> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = todayStart - (SERIES_DAYS - 1) * DAY_MS;
  const cache = closedDays.get(db) ?? new Map<string, { count: number; volumeCents: number }>();
  closedDays.set(db, cache);
  const kinds = sql.join(TRANSFER_KINDS.map((kind) => sql`${kind}`));

  const days = Array.from({ length: SERIES_DAYS }, (_, index) => first + index * DAY_MS);
  const isClosed = (start: number) => start + DAY_MS + CLOSED_AFTER_MS <= now.getTime();
  const missing = days.filter((start) => isClosed(start) && !cache.has(utcDay(new Date(start))));
  if (missing.length > 0) {
    const from = new Date(Math.min(...missing));
    const until = new Date(Math.max(...missing) + DAY_MS);
    const rows = await sql<{ day: Date; count: number; volume: number }>`
      select date_trunc('day', booked_at, 'UTC') as day, count(*)::int as count, coalesce(sum(amount), 0)::bigint as volume
      from journal_entries
      where kind in (${kinds}) and booked_at >= ${from.toISOString()}::timestamptz and booked_at < ${until.toISOString()}::timestamptz
      group by 1`.execute(db);
    const found = new Map(rows.rows.map((row) => [utcDay(new Date(row.day)), { count: row.count, volumeCents: Number(row.volume) }]));
    for (const start of missing) {
      const day = utcDay(new Date(start));
      cache.set(day, found.get(day) ?? { count: 0, volumeCents: 0 });
    }
  }
  // Today (and yesterday during the first minutes after midnight) are read live.
  const openDays = days.filter((start) => !isClosed(start));
  const live = new Map<string, { count: number; volumeCents: number }>();
  if (openDays.length > 0) {
    const rows = await sql<{ day: Date; count: number; volume: number }>`
      select date_trunc('day', booked_at, 'UTC') as day, count(*)::int as count, coalesce(sum(amount), 0)::bigint as volume
      from journal_entries
      where kind in (${kinds}) and booked_at >= ${new Date(Math.min(...openDays)).toISOString()}::timestamptz
      group by 1`.execute(db);
    for (const row of rows.rows) live.set(utcDay(new Date(row.day)), { count: row.count, volumeCents: Number(row.volume) });
  }
  return days.map((start) => {
    const date = utcDay(new Date(start));
    return { date, ...(live.get(date) ?? cache.get(date) ?? { count: 0, volumeCents: 0 }) };
  });
}

/**
 * The figures a back office starts its day with. The counts come from the admin counters (kept
 * exact by triggers); the loans and contact counts join in when those modules are installed.
 */
export async function getDashboard(db: DB): Promise<AdminDashboard> {
  const [journal, loans, contacts] = await Promise.all([tableExists(db, 'journal_entries'), tableExists(db, 'loans'), tableExists(db, 'contact_messages')]);

  // Double entry keeps the sum over all accounts at zero, so what the bank holds for customers is
  // exactly minus the sum of the bank's own (few) accounts: four rows instead of every customer's.
  const figures = await sql<{ customers: number; deposits_held: number; pending_kyc: number; pending_loans: number | null; new_messages: number | null }>`
    select
      (select value from admin_counters where name = 'open_customers') as customers,
      (select coalesce(-sum(balance), 0)::bigint from ledger_accounts where owner_id is null) as deposits_held,
      (select value from admin_counters where name = 'pending_kyc') as pending_kyc,
      ${loans ? sql`(select count(*)::int from loans where status = 'pending')` : sql`null::int`} as pending_loans,
      ${contacts ? sql`(select count(*)::int from contact_messages where read_at is null)` : sql`null::int`} as new_messages`.execute(db);
  const row = figures.rows[0];

  const now = new Date();
  const transferVolume: DashboardDay[] = journal
    ? await transferSeries(db, now)
    : Array.from({ length: SERIES_DAYS }, (_, index) => ({
        date: utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (SERIES_DAYS - 1 - index) * DAY_MS)),
        count: 0,
        volumeCents: 0,
      }));
  const todayFigures = transferVolume[transferVolume.length - 1] ?? { count: 0, volumeCents: 0 };

  return {
    customers: Number(row?.customers ?? 0),
    depositsHeldCents: Number(row?.deposits_held ?? 0),
    transfersToday: { count: todayFigures.count, volumeCents: todayFigures.volumeCents },
    pendingKycReviews: Number(row?.pending_kyc ?? 0),
    pendingLoanApplications: loans ? (row?.pending_loans ?? 0) : null,
    newContactMessages: contacts ? (row?.new_messages ?? 0) : null,
    transferVolume,
  };
}
