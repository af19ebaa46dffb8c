import { type Kysely, sql } from 'kysely';

// Four eyes on money and on drastic actions (issue 15, docs/decisions/023-four-eyes.md). Frozen once landed.
//
// - One row per staff request that waits for a second staff member. `payload` is exactly what was
//   asked (amounts in cents); approval carries it out then, booked at that time.
// - Pending means undecided: `decided_at` is set exactly when the status leaves 'pending'. A cancel
//   is decided by the requester; an expiry by nobody (`decided_by` null).
// - `customer_id` names the customer the request is about (set null if that customer is deleted
//   outright); `subject_user_id` the staff member a staff change is about (who may not approve it).
// - The summary names no person (the customer is read from users, which closing anonymizes).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table approvals (
      id uuid primary key,
      kind text not null check (kind in ('staff_entry', 'balance_correction', 'reversal', 'customer_unblock', 'customer_enable',
        'customer_close', 'loan_approval', 'staff_invitation', 'staff_role_change')),
      requested_by uuid not null references users(id),
      requested_at timestamptz not null,
      expires_at timestamptz not null,
      customer_id uuid references users(id) on delete set null,
      subject_user_id uuid references users(id) on delete set null,
      summary text not null check (length(summary) between 1 and 300),
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'failed', 'expired', 'cancelled')),
      decided_by uuid references users(id),
      decided_at timestamptz,
      reason text check (length(reason) <= 1000),
      outcome jsonb,
      check ((status = 'pending') = (decided_at is null)),
      check (status <> 'approved' or decided_by <> requested_by),
      check (expires_at > requested_at)
    )`.execute(db);
  await sql`create index approvals_status_idx on approvals (status, requested_at desc, id desc)`.execute(db);
  await sql`create index approvals_customer_idx on approvals (customer_id, requested_at desc) where customer_id is not null`.execute(db);
  await sql`create index approvals_pending_expiry_idx on approvals (expires_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists approvals`.execute(db);
}
