import { type Kysely, sql } from 'kysely';

// Customer services (issue 5): stored uploads, identity verification, loans, card requests and
// saved payees. Frozen once landed: a later change is a new migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every upload the bank keeps. The file itself lives under DATA_DIR/uploads with a random name;
  // this row says whose it is, so every read can be authorized.
  await sql`
    create table stored_files (
      id uuid primary key default gen_random_uuid(),
      owner_id uuid not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('profile_picture', 'kyc_passport', 'kyc_document', 'kyc_proof_of_address')),
      storage_name text not null unique check (storage_name ~ '^[0-9a-f]{32}$'),
      media_type text not null check (media_type in ('image/jpeg', 'image/png', 'application/pdf')),
      size_bytes integer not null check (size_bytes > 0 and size_bytes <= 5242880),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index stored_files_owner_idx on stored_files (owner_id, created_at desc)`.execute(db);

  await sql`
    create table kyc_submissions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      document_type text not null check (document_type in ('passport', 'national_id', 'drivers_license')),
      date_of_birth date not null,
      passport_file_id uuid not null references stored_files(id),
      document_file_id uuid not null references stored_files(id),
      proof_of_address_file_id uuid not null references stored_files(id),
      status text not null default 'pending' check (status in ('pending', 'verified', 'failed')),
      reason text,
      reviewed_by uuid references users(id) on delete set null,
      reviewed_at timestamptz,
      created_at timestamptz not null default now(),
      constraint kyc_submissions_reason_on_failure check (status <> 'failed' or reason is not null)
    )`.execute(db);
  await sql`create index kyc_submissions_user_idx on kyc_submissions (user_id, created_at desc)`.execute(db);
  await sql`create index kyc_submissions_status_idx on kyc_submissions (status, created_at)`.execute(db);
  // At most one submission under review per customer.
  await sql`create unique index kyc_submissions_one_pending on kyc_submissions (user_id) where status = 'pending'`.execute(db);

  await sql`
    create table loans (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete restrict,
      loan_type text not null check (loan_type in ('auto', 'home', 'personal', 'business')),
      amount_cents bigint not null check (amount_cents > 0),
      duration_months integer not null check (duration_months between 12 and 60),
      purpose text not null,
      annual_rate_bps integer not null check (annual_rate_bps >= 0 and annual_rate_bps < 10000),
      monthly_payment_cents bigint not null check (monthly_payment_cents > 0),
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'withdrawn')),
      decision_reason text,
      decided_by uuid references users(id) on delete set null,
      decided_at timestamptz,
      disbursement_entry_id text,
      disbursed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint loans_rejection_has_reason check (status <> 'rejected' or decision_reason is not null),
      constraint loans_approval_is_disbursed check (status <> 'approved' or disbursement_entry_id is not null)
    )`.execute(db);
  await sql`create index loans_user_idx on loans (user_id, created_at desc)`.execute(db);
  await sql`create index loans_status_idx on loans (status, created_at)`.execute(db);

  await sql`
    create table card_requests (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      card_type text not null check (card_type in ('debit', 'credit')),
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'shipped')),
      note text,
      decided_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index card_requests_user_idx on card_requests (user_id, created_at desc)`.execute(db);
  await sql`create index card_requests_status_idx on card_requests (status, created_at)`.execute(db);
  await sql`create unique index card_requests_one_open on card_requests (user_id, card_type) where status = 'pending'`.execute(db);

  await sql`
    create table beneficiaries (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      name text not null,
      account_number text not null,
      routing_number text not null,
      bank_name text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index beneficiaries_user_account_key on beneficiaries (user_id, routing_number, account_number)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
