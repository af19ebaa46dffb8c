import { sql } from 'kysely';
import type { AdminDashboard, DashboardDay } from '../../shared/contracts/admin';
import type { DB } from '../db/database';
import { tableExists } from './optional-tables';

export const SERIES_DAYS = 30;
/** Journal kinds that count as transfers: payments to others, wires, and moves between own accounts. */
export const TRANSFER_KINDS = ['transfer', 'wire', 'internal'] as const;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The figures a back office starts its day with. One round trip for the users and the ledger;
 * the loans and contact counts join in when those modules are installed.
 */
export async function getDashboard(db: DB): Promise<AdminDashboard> {
  const [journal, loans, contacts] = await Promise.all([tableExists(db, 'journal_entries'), tableExists(db, 'loans'), tableExists(db, 'contact_messages')]);

  // Double entry keeps the sum over all accounts at zero, so what the bank holds for customers is
  // exactly minus the sum of the bank's own (few) accounts: four rows instead of every customer's.
  const figures = await sql<{ customers: number; deposits_held: string | number; pending_kyc: number; pending_loans: number | null; new_messages: number | null }>`
    select
      (select count(*)::int from users where not is_admin and closed_at is null) as customers,
      (select coalesce(-sum(balance), 0)::bigint from ledger_accounts where owner_id is null) as deposits_held,
      (select count(*)::int from users where verification_status = 'pending') as pending_kyc,
      ${loans ? sql`(select count(*)::int from loans where status = 'pending')` : sql`null::int`} as pending_loans,
      ${contacts ? sql`(select count(*)::int from contact_messages where read_at is null)` : sql`null::int`} as new_messages`.execute(db);
  const row = figures.rows[0];

  const today = new Date();
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (SERIES_DAYS - 1)));
  const byDay = new Map<string, { count: number; volumeCents: number }>();
  if (journal) {
    const kinds = sql.join(TRANSFER_KINDS.map((kind) => sql`${kind}`));
    const series = await sql<{ day: string; count: number; volume: string | number }>`
      select to_char((booked_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*)::int as count, coalesce(sum(amount), 0)::bigint as volume
      from journal_entries
      where kind in (${kinds}) and booked_at >= ${first.toISOString()}::timestamptz
      group by 1`.execute(db);
    for (const entry of series.rows) byDay.set(entry.day, { count: entry.count, volumeCents: Number(entry.volume) });
  }
  const transferVolume: DashboardDay[] = [];
  for (let offset = 0; offset < SERIES_DAYS; offset += 1) {
    const date = utcDay(new Date(first.getTime() + offset * 86_400_000));
    transferVolume.push({ date, ...(byDay.get(date) ?? { count: 0, volumeCents: 0 }) });
  }
  const todayFigures = transferVolume[transferVolume.length - 1] ?? { count: 0, volumeCents: 0 };

  return {
    customers: row?.customers ?? 0,
    depositsHeldCents: Number(row?.deposits_held ?? 0),
    transfersToday: { count: todayFigures.count, volumeCents: todayFigures.volumeCents },
    pendingKycReviews: row?.pending_kyc ?? 0,
    pendingLoanApplications: loans ? (row?.pending_loans ?? 0) : null,
    newContactMessages: contacts ? (row?.new_messages ?? 0) : null,
    transferVolume,
  };
}
