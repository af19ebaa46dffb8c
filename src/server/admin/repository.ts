import { sql } from 'kysely';
import type { DB } from '../db/database';
import { chainHead } from '../ledger/sealer';

// The back office's figures: a read-only report over the counters the admin migration keeps, the
// ledger's accounts, journal and chain head, and the loan and contact queues. Each is one statement
// (or one snapshot) that reads a handful of rows whatever the number of customers (ADR 006).

export interface DashboardFigures {
  customers: number;
  depositsHeldCents: number;
  pendingKyc: number;
  pendingLoans: number;
  newMessages: number;
}

/**
 * The counts come from the admin counters (kept exact by triggers). Double entry keeps the sum over
 * all accounts at zero, so what the bank holds for customers is exactly minus the sum of the bank's
 * own (few) accounts: a handful of rows instead of every customer's.
 */
export async function dashboardFigures(db: DB): Promise<DashboardFigures> {
  const result = await sql<{ customers: number; deposits_held: string; pending_kyc: number; pending_loans: number; new_messages: number }>`
    select
      (select value from admin_counters where name = 'open_customers') as customers,
      (select coalesce(-sum(balance), 0)::bigint from ledger_accounts where owner_id is null) as deposits_held,
      (select value from admin_counters where name = 'pending_kyc') as pending_kyc,
      (select count(*)::int from loans where status = 'pending') as pending_loans,
      (select count(*)::int from contact_messages where read_at is null) as new_messages`.execute(db);
  const row = result.rows[0];
  return {
    customers: Number(row?.customers ?? 0),
    depositsHeldCents: Number(row?.deposits_held ?? 0),
    pendingKyc: Number(row?.pending_kyc ?? 0),
    pendingLoans: Number(row?.pending_loans ?? 0),
    newMessages: Number(row?.new_messages ?? 0),
  };
}

export interface DayTotal {
  /** YYYY-MM-DD: the bank's date (BANK_TIMEZONE). */
  date: string;
  count: number;
  volumeCents: number;
}

/** Entries of these kinds booked from `from` (until `until`, when given), counted and summed per bank day in `zone`. */
export async function entryTotalsByDay(db: DB, kinds: readonly string[], zone: string, from: Date, until?: Date): Promise<DayTotal[]> {
  const result = await sql<{ day: string; count: number; volume: string }>`
    select to_char(booked_at at time zone ${zone}, 'YYYY-MM-DD') as day, count(*)::int as count, coalesce(sum(amount), 0)::bigint as volume
    from journal_entries
    where kind in (${sql.join(kinds.map((kind) => sql`${kind}`))})
      and booked_at >= ${from.toISOString()}::timestamptz
      ${until ? sql`and booked_at < ${until.toISOString()}::timestamptz` : sql``}
    group by 1`.execute(db);
  return result.rows.map((row) => ({ date: row.day, count: row.count, volumeCents: Number(row.volume) }));
}

export interface GeneralLedgerSnapshot {
  bankAccounts: Array<{ kind: string; name: string; balanceCents: number }>;
  customerBalancesCents: number;
  customerAccounts: number;
  head: { seq: number; hash: string };
}

/** The bank's accounts, the customers' balances summed, and the chain head: one snapshot, so the figures add up while payments post. */
export function generalLedgerSnapshot(db: DB): Promise<GeneralLedgerSnapshot> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const bankAccounts = await trx.selectFrom('ledger_accounts').select(['kind', 'name', 'balance']).where('owner_id', 'is', null).orderBy('kind').execute();
      const customers = await trx
        .selectFrom('ledger_accounts')
        .select([sql<string>`coalesce(sum(balance), 0)`.as('total'), sql<string>`count(*)`.as('accounts')])
        .where('owner_id', 'is not', null)
        .executeTakeFirstOrThrow();
      const head = await chainHead(trx);
      return {
        bankAccounts: bankAccounts.map((account) => ({ kind: account.kind, name: account.name, balanceCents: account.balance })),
        customerBalancesCents: Number(customers.total),
        customerAccounts: Number(customers.accounts),
        head: { seq: head.position, hash: head.hash },
      };
    });
}
