import { type Kysely, sql } from 'kysely';

// Loan repayments: customers pay their installments from checking. Interest goes to a bank
// account of its own (interest income); the loan row counts what has been paid, checked against
// what was lent. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`
    alter table ledger_accounts add constraint ledger_accounts_kind_check
      check (kind in ('savings', 'checking', 'bank_cash', 'bank_operations', 'external_clearing', 'loans_receivable', 'interest_income'))`.execute(db);
  await sql`
    alter table loans
      add column installments_paid integer not null default 0 check (installments_paid >= 0),
      add column principal_repaid_cents bigint not null default 0 check (principal_repaid_cents >= 0),
      add column interest_paid_cents bigint not null default 0 check (interest_paid_cents >= 0),
      add column repaid_at timestamptz,
      add constraint loans_repaid_within_term check (installments_paid <= duration_months),
      add constraint loans_repaid_within_amount check (principal_repaid_cents <= amount_cents),
      add constraint loans_only_approved_are_repaid check (status = 'approved' or installments_paid = 0)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
